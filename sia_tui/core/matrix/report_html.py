"""The matrix as one self-contained HTML page that reads on a projector (``--html``, ``x``).

Large type, black on white, a word beside every colour (a washed-out projector or a
colour-blind reader still reads it), inline CSS, no script, no remote asset (its CSP forbids
them). Agent text is made visible (``printable``) and then escaped.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from sia_tui.core.matrix.composition import ALLOWED, MAX_GRID_ROWS, NOT_ALLOWED
from sia_tui.core.matrix.model import Cell, CellStatus, ColumnKind, Matrix, Row
from sia_tui.core.matrix.report_text import MARKS, cell_phrase, link, not_judged
from sia_tui.core.output.printable import printable

_CSS = """
html{font-size:22px}body{font:1rem/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;
margin:1rem 2rem;color:#000;background:#fff}
h1{font-size:2.2rem;margin:.2rem 0}h2{font-size:1.5rem;margin:1.6rem 0 .4rem}
.headline{font-size:1.5rem;font-weight:700;padding:.4rem .8rem;border:4px solid #000;
display:inline-block}.ok{background:#c8f0d2}.bad{background:#ffd0d0}.incomplete{background:#e6dcff}
table{border-collapse:collapse;margin:.4rem 0}th,td{border:2px solid #000;padding:.25rem .45rem;
text-align:center;vertical-align:middle}th{background:#f0f0f0}td.name{text-align:left;
font-weight:700;white-space:nowrap}
.pass{background:#0b6b2e;color:#fff}.fail{background:#b00020;color:#fff;font-weight:700}
.expected{background:#ffd24d;color:#000}.skip{background:#e4e4e4;color:#333}
.incomplete-cell{background:#4b2590;color:#fff}.pending,.running{background:#fff;color:#555}
td a{color:inherit}ul{margin:.3rem 0}li{margin:.25rem 0}.legend{font-size:.9rem}
.step{font-size:1.1rem;min-width:1.4rem}
"""
_CLASSES = {
    CellStatus.PASS: "pass",
    CellStatus.FAIL: "fail",
    CellStatus.SKIP: "skip",
    CellStatus.INCOMPLETE: "incomplete-cell",
    CellStatus.PENDING: "pending",
    CellStatus.RUNNING: "running",
}
_WORDS = {
    CellStatus.PASS: "PASS",
    CellStatus.FAIL: "FAIL",
    CellStatus.SKIP: "n/a",
    CellStatus.INCOMPLETE: "COULD NOT RUN",
    CellStatus.PENDING: "pending",
    CellStatus.RUNNING: "running",
}


def _e(text: object) -> str:
    """Agent text for HTML: control characters visible, then escaped."""
    return escape(printable(str(text)), quote=True)


def _class(cell: Cell) -> str:
    return "expected" if cell.status is CellStatus.FAIL and cell.expected else _CLASSES[cell.status]


def _td(cell: Cell, *, step: bool, base: Path | None) -> str:
    if step:
        text = MARKS[cell.status]
    else:
        word = "EXPECTED" if cell.expected else _WORDS[cell.status]
        text = f"{_e(word)}<br>{_e(cell_phrase(cell))}"
        target = link(cell.session, base)
        if target:
            text = f'<a href="{_e(target)}">{text}</a>'
    extra = " step" if step else ""
    return f'<td class="{_class(cell)}{extra}" title="{_e(cell.summary)}">{text}</td>'


def _matrix_table(matrix: Matrix, base: Path | None) -> str:
    heads = "".join(f'<th title="{_e(c.title)}">{_e(c.label)}</th>' for c in matrix.columns)
    body = []
    for row in matrix.rows:
        cells = "".join(
            _td(row.cells[c.key], step=c.kind is ColumnKind.STEP, base=base) for c in matrix.columns
        )
        body.append(
            f'<tr><td class="name">{_e(row.agent)}</td>'
            f'<td class="name">{_e(row.skill or "(card)")}</td>{cells}</tr>'
        )
    return (
        f"<table><thead><tr><th>agent</th><th>skill</th>{heads}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


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
    heads = "".join(f"<th>{_e(r.label)}</th>" for r in rows)
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
        body.append(f'<tr><td class="name">{_e(up.label)}</td>{"".join(cells)}</tr>')
    return (
        f"<table><thead><tr><th>upstream ↓ · downstream →</th>{heads}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def matrix_to_html(matrix: Matrix, base: Path | None = None) -> str:
    """The page; session links are relative to ``base`` (the HTML file's folder) when given."""
    baseline = matrix.baseline
    tone = {0: "ok", 1: "bad"}.get(matrix.exit_code, "incomplete")
    headline = baseline.headline if baseline else "INCOMPLETE: the matrix is still running"
    counts = " · ".join(f"{n} {s.value}" for s, n in matrix.counts().items() if n)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(matrix.plugfest.name)} · sia-tui matrix</title><style>{_CSS}</style>"
        f"</head><body><h1>{_e(matrix.plugfest.name)}</h1>"
        f'<p class="headline {tone}">{_e(headline)}</p><p>{_e(counts)}</p>'
        f"{_matrix_table(matrix, base)}"
        '<p class="legend">✔ pass · ✘ fail · EXPECTED: a failure the baseline knows · '
        "n/a: does not apply (or after a failure, RULES CP0) · COULD NOT RUN · ★ an expected "
        "failure now passes. Columns 1-11: the steps of each row's first run.</p>"
        f"<h2>Failures</h2>{_failures(matrix)}"
        f"<h2>Composition (RULES CMP1-CMP3)</h2>{_composition(matrix)}"
        "<p>Direct composition needs the four Schema Reference fields equal; a match proves "
        "structural, not semantic, compatibility (RULES CMP3).</p>"
        "<p>sia-tui · draft-huang-ainetops-agent-schema-interfaces-00</p></body></html>\n"
    )
