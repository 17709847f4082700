"""The matrix as plain text (``sia-tui matrix`` on a pipe) and as Markdown (``--markdown``).

Agent text is made inert first: control characters visible (``printable``), Markdown
specials escaped (``md_text``). The marks are shared with the HTML page and the TUI.
"""

from __future__ import annotations

import os
from pathlib import Path

from sia_tui.core.bugreport.report_markdown import md_text
from sia_tui.core.matrix.composition import ALLOWED, MAX_GRID_ROWS, NOT_ALLOWED
from sia_tui.core.matrix.grid import Cell, CellStatus, ColumnKind, Matrix, Row
from sia_tui.core.output.policy import printable

#: One character per status, for the step columns and the terminal.
MARKS = {
    CellStatus.PASS: "✔",
    CellStatus.FAIL: "✘",
    CellStatus.SKIP: "–",
    CellStatus.INCOMPLETE: "?",
    CellStatus.PENDING: "·",
    CellStatus.RUNNING: "▸",
}
LEGEND = (
    "✔ pass · ✘ fail · ✘ expected: a failure the baseline knows · – does not apply "
    "(or after a failure, RULES CP0) · ? could not run · ★ an expected failure now passes"
)
COMPOSITION_MARKS = {ALLOWED: "✔", NOT_ALLOWED: "✘"}


def cell_phrase(cell: Cell) -> str:
    """A verdict cell in a few words: ``✘ 4 interface_invalid (local)``, ``✔ ★``."""
    mark = MARKS[cell.status]
    if cell.status is CellStatus.PASS:
        return f"{mark} ★ now passes" if cell.fixed else mark
    if cell.status is CellStatus.FAIL:
        where = " ".join(str(p) for p in (cell.step, cell.code or cell.category) if p)
        origin = f" ({cell.origin})" if cell.origin else ""
        return f"{mark} {'expected: ' if cell.expected else ''}{where}{origin}"
    if cell.status is CellStatus.INCOMPLETE and cell.step:
        return f"{mark} at step {cell.step}"
    return mark


def reason(cell: Cell) -> str:
    """Why a cell is not a pass: who is at fault for a failure, else the run's summary."""
    if cell.status is CellStatus.FAIL and cell.statement:
        return f"{cell.party}: {cell.statement}"
    return cell.summary


def link(session: str | None, base: Path | None) -> str | None:
    """``session`` relative to the report's folder (so the report and sessions move together)."""
    if session is None:
        return None
    if base is None:
        return session
    return Path(os.path.relpath(session, base)).as_posix()


def _steps(row: Row, matrix: Matrix) -> str:
    marks = [MARKS[row.cells[c.key].status] for c in matrix.columns if c.kind is ColumnKind.STEP]
    return "".join(marks)


def matrix_to_text(matrix: Matrix) -> str:
    """Rows, each verdict cell on its own line with its reason; then composition and baseline."""
    lines = [f"Plugfest matrix: {printable(matrix.plugfest.name)}", ""]
    for row in matrix.rows:
        lines.append(f"{printable(row.label)}   steps {_steps(row, matrix)}")
        for column in matrix.verdict_columns:
            cell = row.cells[column.key]
            why = "" if cell.status is CellStatus.PASS else f": {printable(reason(cell))}"
            lines.append(f"  {column.label:<16} {cell_phrase(cell)}{why}")
    allowed = [p for p in matrix.composition if p.status == ALLOWED]
    lines += ["", f"Composition: {len(allowed)} of {len(matrix.composition)} pairs may compose"]
    if matrix.composition_not_listed:
        lines.append(f"  ({not_judged(matrix)})")
    for pair in allowed:
        lines.append(f"  {printable(pair.upstream.label)} → {printable(pair.downstream.label)}")
    if matrix.baseline is not None:
        lines += ["", matrix.baseline.headline]
        lines += [f"  new failure: {printable(r.describe())}" for r in matrix.baseline.new_failures]
        lines += [
            f"  now passes, remove from the baseline: {printable(e.describe())} (line {e.line})"
            for e in matrix.baseline.now_passing
        ]
    return "\n".join(lines) + "\n"


def _md_cell(cell: Cell, base: Path | None, with_link: bool) -> str:
    text = md_text(printable(cell_phrase(cell)))
    target = link(cell.session, base) if with_link else None
    return f"[{text}](<{target}>)" if target else text


def matrix_to_markdown(matrix: Matrix, base: Path | None = None) -> str:
    """The matrix, the failures with who is at fault, the composition grid and the baseline.

    Session links are relative to ``base`` (the Markdown file's folder) when given.
    """
    name = md_text(printable(matrix.plugfest.name))
    out = [f"# Plugfest matrix: {name}", ""]
    if matrix.baseline is not None:
        out += [f"**{md_text(matrix.baseline.headline)}**", ""]
    heads = ["agent", "skill"] + [md_text(c.label) for c in matrix.columns]
    out += ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for row in matrix.rows:
        cells = [md_text(printable(row.agent)), md_text(printable(row.skill or "(card)"))]
        for column in matrix.columns:
            verdict = column.kind not in (ColumnKind.STEP, ColumnKind.WIRE)  # the first run's
            cells.append(_md_cell(row.cells[column.key], base, verdict))
        out.append("| " + " | ".join(cells) + " |")
    out += ["", md_text(LEGEND), "", "## Failures", ""]
    failures = 0
    for row in matrix.rows:
        for column in matrix.verdict_columns:
            cell = row.cells[column.key]
            if cell.status in (CellStatus.FAIL, CellStatus.INCOMPLETE):
                failures += 1
                fault = f" At fault: {cell.party}: {cell.statement}." if cell.party else ""
                text = f"{row.label} · {column.label}: {cell_phrase(cell)}: {cell.summary}.{fault}"
                out.append(f"- {md_text(printable(text))}")
    if not failures:
        out.append("None.")
    out += ["", "## Composition (RULES CMP1-CMP3)", "", *_md_composition(matrix)]
    return "\n".join(out) + "\n"


def not_judged(matrix: Matrix) -> str:
    """Why the composition table stops: the pairs left out, counted."""
    return (
        f"{matrix.composition_not_listed} more pairs are not judged: at most "
        f"{len(matrix.composition)} are"
    )


def _md_composition(matrix: Matrix) -> list[str]:
    rows = [r for r in matrix.rows if r.skill is not None]
    if not matrix.composition:
        return ["No pair of skills across vendors."]
    out: list[str] = []
    if len(rows) <= MAX_GRID_ROWS:  # a grid of more rows is neither readable nor small
        verdicts = {(id(p.upstream), id(p.downstream)): p for p in matrix.composition}
        heads = ["upstream ↓ · downstream →"] + [md_text(printable(r.label)) for r in rows]
        out += ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
        for up in rows:
            cells = [md_text(printable(up.label))]
            for down in rows:
                pair = verdicts.get((id(up), id(down)))
                cells.append(COMPOSITION_MARKS.get(pair.status, "–") if pair else " ")
            out.append("| " + " | ".join(cells) + " |")
        out += ["", "✔ direct composition allowed · ✘ not allowed · – a document was not validated"]
    else:
        out.append(f"{len(rows)} rows: too many for a grid; the pairs that compose follow.")
    if matrix.composition_not_listed:
        out += ["", md_text(not_judged(matrix)) + "."]
    out.append("")
    for pair in matrix.composition:
        if pair.status == ALLOWED or pair.look_alike:
            text = f"{pair.upstream.label} → {pair.downstream.label}: {pair.summary}"
            alike = f" ({'; '.join(pair.look_alike)})" if pair.look_alike else ""
            out.append(f"- {md_text(printable(text + alike))}")
    return out
