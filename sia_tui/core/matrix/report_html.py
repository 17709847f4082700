"""The matrix as one self-contained HTML page that reads on a projector (``--html``, ``x``).

Large type, black on white, a word beside every colour (a washed-out projector or a
colour-blind reader still reads it), inline CSS, no script, no remote asset (its CSP forbids
them). Agent text is made visible (``printable``) and then escaped.
"""

from __future__ import annotations

from html import escape
from itertools import groupby
from pathlib import Path

from sia_tui.core.matrix.composition import ALLOWED, MAX_GRID_ROWS, NOT_ALLOWED
from sia_tui.core.matrix.grid import Cell, CellStatus, Column, ColumnKind, Matrix, Row
from sia_tui.core.matrix.plugfest import BINDING_LABELS
from sia_tui.core.matrix.report_text import MARKS, cell_phrase, link, not_judged
from sia_tui.core.output.policy import printable

_CSS = """
html{font-size:22px}body{font:1rem/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;
margin:1rem 2rem;color:#000;background:#fff}
h1{font-size:2.2rem;margin:.2rem 0}h2{font-size:1.5rem;margin:1.6rem 0 .4rem}
.headline{font-size:1.5rem;font-weight:700;padding:.4rem .8rem;border:4px solid #000;
display:inline-block}.ok{background:#c8f0d2}.bad{background:#ffd0d0}.incomplete{background:#e6dcff}
table{border-collapse:collapse;margin:.4rem 0}th,td{border:2px solid #000;padding:.2rem .3rem;
text-align:center;vertical-align:middle}th{background:#f0f0f0}td.name{text-align:left;
font-weight:700}tr.agent th{text-align:left;background:#000;color:#fff;font-size:1.1rem}
table.matrix{width:100%}table.matrix td{font-size:.8rem;line-height:1.2}
.pass{background:#0b6b2e;color:#fff}.fail{background:#b00020;color:#fff;font-weight:700}
.expected{background:#fff1c2;color:#000;border-style:dashed}.skip{background:#e4e4e4;color:#333}
.incomplete-cell{background:#4b2590;color:#fff}.pending,.running{background:#fff;color:#555}
td a{color:inherit}ul{margin:.3rem 0}li{margin:.25rem 0}.legend{font-size:.9rem}
table.matrix td.step{font-size:1rem;padding:.15rem .1rem}
table.grid th,table.grid td{font-size:.75rem;line-height:1.2;padding:.15rem}
"""
_CLASSES = {
    CellStatus.PASS: "pass",
    CellStatus.FAIL: "fail",
    CellStatus.SKIP: "skip",
    CellStatus.INCOMPLETE: "incomplete-cell",
    CellStatus.PENDING: "pending",
    CellStatus.RUNNING: "running",
}
#: The word in each cell, and in the counts above the table (the same word in both).
_WORDS = {
    CellStatus.PASS: "PASS",
    CellStatus.FAIL: "FAIL",
    CellStatus.SKIP: "n/a",
    CellStatus.INCOMPLETE: "COULD NOT RUN",
    CellStatus.PENDING: "pending",
    CellStatus.RUNNING: "running",
}
_LEGEND = (
    "✔ PASS · ✘ FAIL (red): a new failure · ✘ EXPECTED (pale, dashed): a failure the "
    "baseline knows · n/a: does not apply (or after a failure, RULES CP0) · ? COULD NOT RUN · "
    "★ an expected failure now passes. Under each cell's word: the step that failed, the "
    "error code and where it was found (local: by sia-tui, remote: reported by the agent). "
    "Steps 1-11: the steps of each row's first run."
)


def _e(text: object) -> str:
    """Agent text for HTML: control characters visible, then escaped."""
    return escape(printable(str(text)), quote=True)


def _breakable(text: str) -> str:
    """Escaped, with a line-break opportunity after each ``_`` (long ids and codes wrap)."""
    return "_<wbr>".join(_e(part) for part in text.split("_"))


def _class(cell: Cell) -> str:
    return "expected" if cell.status is CellStatus.FAIL and cell.expected else _CLASSES[cell.status]


def _word(cell: Cell) -> str:
    """The cell's word: what the counts call it too (an expected failure says so)."""
    word = "EXPECTED" if cell.status is CellStatus.FAIL and cell.expected else _WORDS[cell.status]
    if cell.status is CellStatus.PASS and cell.fixed:
        word += " ★"
    return f"{MARKS[cell.status]} {word}"


def _where(cell: Cell) -> str:
    """Under the word: the step, the code and its origin, each on a line that may wrap."""
    if cell.status not in (CellStatus.FAIL, CellStatus.INCOMPLETE) or cell.step is None:
        return ""
    lines = [f"step {cell.step}"]
    if cell.code or cell.category:
        lines.append(_breakable(str(cell.code or cell.category)))
    if cell.origin:
        lines.append(_e(cell.origin))
    return "<br>" + "<br>".join(lines)


def _td(cell: Cell, *, step: bool, base: Path | None) -> str:
    if step:
        text = MARKS[cell.status]
    else:
        text = f"{_e(_word(cell))}{_where(cell)}"
        target = link(cell.session, base)
        if target:
            text = f'<a href="{_e(target)}">{text}</a>'
    extra = " step" if step else ""
    return f'<td class="{_class(cell)}{extra}" title="{_e(cell.summary)}">{text}</td>'


def _head(matrix: Matrix) -> str:
    """Two header rows: the steps and each binding as a group, its modes under it."""
    top, under = ['<th rowspan="2">skill</th>'], []
    for key, group in groupby(matrix.columns, key=_group):
        columns = list(group)
        if key == "":  # a column of its own (probe, sig, lock)
            top += [f'<th rowspan="2" title="{_e(c.title)}">{_e(c.label)}</th>' for c in columns]
            continue
        title = "the eleven steps of the row's first run" if key == _STEPS else ""
        top.append(f'<th colspan="{len(columns)}" title="{title}">{_e(key)}</th>')
        under += [f'<th title="{_e(c.title)}">{_e(_sub(c))}</th>' for c in columns]
    return f"<thead><tr>{''.join(top)}</tr><tr>{''.join(under)}</tr></thead>"


_STEPS = "steps"
#: Columns read from the row's first run, drawn as its steps are (no session link of their
#: own: the steps' row links it).
_FIRST_RUN = (ColumnKind.STEP, ColumnKind.WIRE)


def _group(column: Column) -> str:
    """The header group of ``column``: the steps, its binding, or none ("")."""
    if column.kind is ColumnKind.STEP:
        return _STEPS
    if column.kind is ColumnKind.BINDING_MODE and column.binding:
        return BINDING_LABELS[column.binding]
    return ""


def _sub(column: Column) -> str:
    return column.mode if column.kind is ColumnKind.BINDING_MODE and column.mode else column.label


def _matrix_table(matrix: Matrix, base: Path | None) -> str:
    """Rows grouped by agent (a header row each), so a row is its skill and its cells."""
    width = len(matrix.columns) + 1
    body = []
    for agent, rows in groupby(matrix.rows, key=lambda r: r.agent):
        body.append(f'<tr class="agent"><th colspan="{width}">{_e(agent)}</th></tr>')
        for row in rows:
            cells = "".join(
                _td(row.cells[c.key], step=c.kind in _FIRST_RUN, base=base) for c in matrix.columns
            )
            skill = _breakable(row.skill) if row.skill else "(card)"
            body.append(f'<tr><td class="name">{skill}</td>{cells}</tr>')
    return f'<table class="matrix">{_head(matrix)}<tbody>{"".join(body)}</tbody></table>'


def _counts(matrix: Matrix) -> str:
    """How many cells have each word; the expected failures among the failures."""
    counts = matrix.counts()
    expected = len(matrix.baseline.expected_failures) if matrix.baseline else 0
    parts = []
    for status, count in counts.items():
        if not count:
            continue
        known = f" ({expected} expected)" if status is CellStatus.FAIL and expected else ""
        parts.append(f"{count} {_WORDS[status]}{known}")
    return " · ".join(parts)


def _failures(matrix: Matrix) -> str:
    items = []
    for row in matrix.rows:
        for column in matrix.verdict_columns:
            cell = row.cells[column.key]
            if cell.status not in (CellStatus.FAIL, CellStatus.INCOMPLETE):
                continue
            fault = (
                f" <b>At fault:</b> {_e(cell.party)}: {_e(cell.statement)}" if cell.party else ""
            )
            expected = f" <i>(expected: {_e(cell.expected)})</i>" if cell.expected else ""
            items.append(
                f"<li><b>{_e(row.label)} · {_e(column.label)}</b>: {_e(cell_phrase(cell))}"
                f"{expected}: {_e(cell.summary)}.{fault}</li>"
            )
    return f"<ul>{''.join(items)}</ul>" if items else "<p>None.</p>"


def _composition(matrix: Matrix) -> str:
    rows: list[Row] = [r for r in matrix.rows if r.skill is not None]
    if not matrix.composition:
        return "<p>No pair of skills across vendors.</p>"
    more = f"<p>{_e(not_judged(matrix))}.</p>" if matrix.composition_not_listed else ""
    if len(rows) > MAX_GRID_ROWS:  # a grid of more rows is neither readable nor small
        allowed = [p for p in matrix.composition if p.status == ALLOWED]
        items = "".join(
            f"<li>{_e(p.upstream.label)} → {_e(p.downstream.label)}</li>" for p in allowed
        )
        return (
            f"<p>{len(rows)} rows: too many for a grid. {len(allowed)} of "
            f"{len(matrix.composition)} pairs compose:</p>{more}<ul>{items}</ul>"
        )
    return more + _grid(matrix, rows)


def _grid(matrix: Matrix, rows: list[Row]) -> str:
    pairs = {(id(p.upstream), id(p.downstream)): p for p in matrix.composition}
    heads = "".join(f"<th>{_breakable(r.label)}</th>" for r in rows)
    body = []
    for up in rows:
        cells = []
        for down in rows:
            pair = pairs.get((id(up), id(down)))
            if pair is None:
                cells.append("<td></td>")
                continue
            tone = {ALLOWED: "pass", NOT_ALLOWED: "fail"}.get(pair.status, "skip")
            word = {ALLOWED: "✔ yes", NOT_ALLOWED: "✘ no"}.get(pair.status, "– n/a")
            cells.append(f'<td class="{tone}" title="{_e(pair.summary)}">{word}</td>')
        body.append(f'<tr><td class="name">{_breakable(up.label)}</td>{"".join(cells)}</tr>')
    return (
        f'<table class="grid"><thead><tr><th>upstream ↓ · downstream →</th>{heads}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def matrix_to_html(matrix: Matrix, base: Path | None = None) -> str:
    """The page; session links are relative to ``base`` (the HTML file's folder) when given."""
    baseline = matrix.baseline
    tone = {0: "ok", 1: "bad"}.get(matrix.exit_code, "incomplete")
    headline = baseline.headline if baseline else "INCOMPLETE: the matrix is still running"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(matrix.plugfest.name)} · sia-tui matrix</title><style>{_CSS}</style>"
        f"</head><body><h1>{_e(matrix.plugfest.name)}</h1>"
        f'<p class="headline {tone}">{_e(headline)}</p><p>{_e(_counts(matrix))}</p>'
        f'{_matrix_table(matrix, base)}<p class="legend">{_e(_LEGEND)}</p>'
        f"<h2>Failures</h2>{_failures(matrix)}"
        f"<h2>Composition (RULES CMP1-CMP3)</h2>{_composition(matrix)}"
        "<p>Direct composition needs the four Schema Reference fields equal; a match proves "
        "structural, not semantic, compatibility (RULES CMP3).</p>"
        "<p>sia-tui · draft-huang-ainetops-agent-schema-interfaces-00</p></body></html>\n"
    )
