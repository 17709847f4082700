"""How matrix cells look in the TUI: marks, colours and the selected cell's detail.

Everything here reads the core's matrix model (``sia_tui.core.matrix``); no verdict is
computed. Agent text goes through the app's ``DisplayPolicy``: never markup, controls
visible, secrets masked.
"""

from __future__ import annotations

from pathlib import Path

from textual.content import Content

from sia_tui.core.engine import DetectedBy
from sia_tui.core.matrix import (
    MARKS,
    Cell,
    CellStatus,
    Column,
    ColumnKind,
    CompositionCell,
    Matrix,
    Row,
)
from sia_tui.tui.display import DisplayPolicy

#: The theme colour of each status (``themes/*.json`` define the step-* variables).
STYLES = {
    CellStatus.PASS: "$step-passed",
    CellStatus.FAIL: "bold $step-failed",
    CellStatus.SKIP: "$step-skipped",
    CellStatus.INCOMPLETE: "bold $warning",
    CellStatus.PENDING: "$text-muted",
    CellStatus.RUNNING: "$step-running",
}
#: Short binding names for the two-line column headings.
SHORT_BINDINGS = {"jsonrpc": "JSONRPC", "http-json": "HTTP+JSON"}
WORDS = {
    CellStatus.PASS: "PASS",
    CellStatus.FAIL: "FAIL",
    CellStatus.SKIP: "DOES NOT APPLY",
    CellStatus.INCOMPLETE: "COULD NOT RUN",
    CellStatus.PENDING: "waiting",
    CellStatus.RUNNING: "running",
}


def heading(column: Column) -> str:
    """``JSONRPC`` over ``sync``: binding/mode columns take two header lines."""
    if column.kind is ColumnKind.BINDING_MODE and column.binding and column.mode:
        return f"{SHORT_BINDINGS[column.binding]}\n{column.mode}"
    return column.label


def steps_strip(row: Row, matrix: Matrix) -> Content:
    """The eleven step cells of the row's first run as eleven coloured marks."""
    parts = [
        Content.styled(MARKS[row.cells[c.key].status], STYLES[row.cells[c.key].status])
        for c in matrix.columns
        if c.kind is ColumnKind.STEP
    ]
    return Content("").join(parts)


def steps_cell(row: Row, matrix: Matrix) -> Cell:
    """The step cell the 'steps' column stands for: the first that did not pass, else 11."""
    cells = [row.cells[c.key] for c in matrix.columns if c.kind is ColumnKind.STEP]
    return next((c for c in cells if c.status is not CellStatus.PASS), cells[-1])


def verdict_mark(cell: Cell) -> Content:
    """A verdict cell in a few characters: ``✔``, ``✘ 4``, ``✘ 4 exp``, ``✔ ★``, ``? 3``."""
    mark = MARKS[cell.status]
    if cell.status is CellStatus.FAIL:
        step = f" {cell.step}" if cell.step is not None else ""
        text = f"{mark}{step}" + (" exp" if cell.expected else "")
        return Content.styled(text, "$warning" if cell.expected else STYLES[cell.status])
    if cell.status is CellStatus.PASS and cell.fixed:
        return Content.styled(f"{mark} ★", "bold $step-passed")
    if cell.status is CellStatus.INCOMPLETE and cell.step:
        return Content.styled(f"{mark} {cell.step}", STYLES[cell.status])
    return Content.styled(mark, STYLES[cell.status])


def session_name(cell: Cell) -> str:
    """The session file as shown: its name (the folder is the plugfest's sessions folder,
    which the export names)."""
    return Path(cell.session).name if cell.session is not None else ""


def detail(row: Row, column: Column | None, cell: Cell, policy: DisplayPolicy) -> Content:
    """What the selected cell says: the verdict, why, who is at fault, its session."""
    literal = policy.literal
    where = f"{row.label} · {column.label if column else 'steps 1-11'}"
    word = "EXPECTED FAILURE" if cell.expected else WORDS[cell.status]
    # Spaces trail each span: an SVG renderer may drop a span's leading spaces.
    head = [literal(where + "  ", style="bold"), Content.styled(word + " ", STYLES[cell.status])]
    if cell.step is not None and cell.status is not CellStatus.SKIP:
        code = f", {cell.code} ({cell.origin or DetectedBy.LOCAL})" if cell.code else ""
        head.append(literal(f"at step {cell.step}{code}"))
    lines = [Content("").join(head)]
    if not (cell.status is CellStatus.FAIL and cell.party):  # else the head line and blame say it
        lines.append(literal(cell.summary or "-"))
    if cell.party:
        lines.append(
            Content.assemble(("At fault: ", "bold"), literal(f"{cell.party}: {cell.statement}"))
        )
    if cell.expected:
        lines.append(Content.assemble(("Baseline: ", "bold"), literal(cell.expected)))
    if cell.fixed:
        lines.append(
            Content.assemble(
                ("Now passes: ", "bold $step-passed"),
                literal(f"remove it from the baseline ({cell.fixed})"),
            )
        )
    name = session_name(cell)
    if name:
        lines.append(
            Content.assemble(("Session: ", "bold"), literal(name), "  (Enter opens it read-only)")
        )
    return Content("\n").join(lines)


def progress(matrix: Matrix, policy: DisplayPolicy) -> Content:
    """The title line: the plugfest, how many cells are done, and the verdict once finished."""
    counts = matrix.counts()
    total = sum(counts.values())
    done = total - counts[CellStatus.PENDING] - counts[CellStatus.RUNNING]
    parts = [
        Content.styled("Plugfest ", "bold"),
        # Spaces trail each span: an SVG renderer may drop a span's leading spaces.
        Content.styled(
            policy.visible(matrix.plugfest.name, multiline=False) + "  ", "bold $accent"
        ),
        Content(f"{done}/{total} cells  "),
    ]
    for status in (CellStatus.PASS, CellStatus.FAIL, CellStatus.SKIP, CellStatus.INCOMPLETE):
        parts.append(Content.styled(f"{MARKS[status]} {counts[status]}  ", STYLES[status]))
    if matrix.baseline is not None:
        tone = {0: "bold $success", 1: "bold $error"}.get(matrix.exit_code, "bold $warning")
        parts += [Content("\n"), Content.styled(matrix.baseline.headline, tone)]
    return Content("").join(parts)


#: The words and colours of a composition verdict.
PAIR_LOOK = {
    "allowed": ("✔ composes", "$step-passed"),
    "not_allowed": ("✘ not allowed", "$step-failed"),
    "unavailable": ("– unavailable", "$step-skipped"),
}


def pair_detail(pair: CompositionCell, policy: DisplayPolicy) -> Content:
    """The selected composition pair: the verdict, why, and what looks alike (RULES CMP2)."""
    literal = policy.literal
    word, style = PAIR_LOOK.get(pair.status, PAIR_LOOK["unavailable"])
    lines = [
        Content.assemble(
            literal(f"{pair.upstream.label} → {pair.downstream.label}  ", style="bold"),
            (word, style),
        ),
        literal(pair.summary),
    ]
    if pair.differing:
        lines.append(Content.assemble(("Differ: ", "bold"), literal(", ".join(pair.differing))))
    if pair.look_alike:
        alike = "; ".join(pair.look_alike)
        lines.append(
            Content.assemble(("Looks alike, still not composable: ", "bold"), literal(alike))
        )
    return Content("\n").join(lines)
