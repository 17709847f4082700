"""The Matrix screen (plugfest mode): the live table of agents × skills × bindings × modes.

``sia-tui matrix PLUGFEST.toml`` opens it. The core's ``MatrixRunner`` fills the table in a
worker; each cell appears as its run finishes. Enter on a cell opens that run's saved
session read-only (Steps, Digests, Results... of the recorded bytes; Esc comes back here),
``c`` shows the composition table, ``x`` exports the HTML page, Markdown, JSON and JUnit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable, Static

from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.matrix import (
    PROBE_KEY,
    Cell,
    CompositionCell,
    Matrix,
    MatrixRunner,
    Plugfest,
    Row,
    matrix_junit_suites,
    matrix_to_html,
    matrix_to_json,
    matrix_to_markdown,
    not_judged,
)
from sia_tui.core.output import write_junit
from sia_tui.core.run import Run
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.screens.matrix_cells import (
    PAIR_LOOK,
    detail,
    heading,
    pair_detail,
    progress,
    steps_cell,
    steps_strip,
    verdict_mark,
)
from sia_tui.tui.widgets.literal import LiteralStatic
from sia_tui.tui.widgets.literal_table import LiteralTable
from sia_tui.tui.widgets.target_header import TargetHeader

#: The table's first columns before the verdict columns.
_STEPS = "steps"
_STEPS_WIDTH = 11
_VERDICT_WIDTH = 9
#: The agent and skill columns' widths at 80-120 columns; wider terminals give them more.
NAME_WIDTHS = (12, 22)
#: The panel before the user chose a cell (the first cell is not a choice).
CHOOSE_HINT = (
    "Choose a cell with the arrow keys to see its verdict and who is at fault; Enter opens "
    "its run, c the composition table."
)


@dataclass(frozen=True)
class MatrixLaunch:
    """What ``sia-tui matrix`` hands the app: the file, where sessions go, and limits."""

    plugfest: Plugfest
    save_dir: Path
    jobs: int | None = None
    deadline: float | None = None
    allow_execute: bool = False
    """The user's consent (``--allow-execute``) to invoking skills that may act."""
    trace: bool = True
    """W3C trace headers on every call (``--no-trace`` turns them off)."""
    tracestate: str | None = None
    """The user's ``--tracestate``, passed on beside each traceparent."""
    otlp_endpoint: str | None = None
    """The user's collector (``--otlp-endpoint``): each run's spans go there."""


@dataclass
class MatrixChanged(Message):
    """The runner changed a row (None: the whole table, e.g. the baseline is in)."""

    row: Row | None


class MatrixMode(RunScreen):
    """The plugfest matrix, filling in live.

    | key | action |
    |---|---|
    | `enter` | open the cell's run read-only (Esc returns here) |
    | `c` | show the composition table / the matrix |
    | `x` | export HTML, Markdown, JSON and JUnit into the sessions folder |
    """

    HELP = (
        "Rows are agent × skill. 'steps' shows the eleven steps of the row's first run; each "
        "binding/mode column is its own run: ✔ pass, ✘ N failed at step N (exp: the baseline "
        "expects it), – does not apply, ? could not run, ★ an expected failure now passes. "
        "Enter opens a cell's run read-only; Esc comes back."
    )
    BINDINGS = [
        Binding("c", "toggle_composition", "Composition", id="matrix.composition"),
        Binding("x", "export", "Export", id="matrix.export"),
    ]
    DEFAULT_CSS = """
    MatrixMode #matrix-title { height: auto; padding: 0 1; }
    MatrixMode DataTable { height: 1fr; }
    MatrixMode #composition { display: none; }
    MatrixMode.composition #composition { display: block; }
    MatrixMode.composition #matrix { display: none; }
    MatrixMode #matrix-detail { height: auto; max-height: 7; border: round $panel; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.matrix: Matrix | None = None
        """The table as the runner has filled it so far."""
        self._row_keys: list[Row] = []
        self._pairs: list[CompositionCell] = []
        self._chosen = False
        """True once the user moved the cursor: until then the panel says how to choose."""
        self._names = NAME_WIDTHS
        """The agent and skill columns' widths now."""

    def compose_body(self) -> ComposeResult:
        yield LiteralStatic(id="matrix-title")
        yield LiteralTable(id="matrix", cursor_type="cell", header_height=2, zebra_stripes=True)
        yield LiteralTable(id="composition", cursor_type="row", zebra_stripes=True)
        yield LiteralStatic(id="matrix-detail")

    def refresh_run(self) -> None:
        """The header names the plugfest (there is no live run in plugfest mode); the matrix
        itself redraws from its runner."""
        if not self.is_mounted:
            return
        launch = self.launch
        name = launch.plugfest.name if launch is not None else "no plugfest file"
        self.query_one(TargetHeader).update(
            Content.assemble(
                ("sia-tui ", "bold"), "plugfest: ", self.policy.literal(name, style="bold")
            )
        )

    def show_run(self, run: Run | None) -> None:
        """The matrix redraws from its runner, not from the app's run."""

    @property
    def launch(self) -> MatrixLaunch | None:
        """The app's plugfest, if it was started in plugfest mode."""
        launch = getattr(self.app, "matrix_launch", None)
        return launch if isinstance(launch, MatrixLaunch) else None

    def on_mount(self) -> None:
        launch = self.launch
        if launch is None:
            self.query_one("#matrix-title", Static).update("No plugfest file: run sia-tui matrix")
            return
        runner = MatrixRunner(
            launch.plugfest,
            save_dir=launch.save_dir,
            jobs=launch.jobs,
            deadline=launch.deadline,
            on_change=self._changed,
            allow_execute=launch.allow_execute,
            trace=launch.trace,
            tracestate=launch.tracestate,
            otlp_endpoint=launch.otlp_endpoint,
        )
        self.matrix = runner.matrix
        self._columns()
        self.redraw()
        self.query_one("#matrix", DataTable).focus()
        self._run(runner)

    def _changed(self, matrix: Matrix, row: Row | None) -> None:
        # Called by the runner on the app's loop; the redraw happens in the handler.
        self.post_message(MatrixChanged(row))

    @work(exclusive=True, group="matrix")
    async def _run(self, runner: MatrixRunner) -> None:
        await runner.run()
        for warning in runner.warnings:
            self.notify(warning, severity="warning")

    def _columns(self) -> None:
        assert self.matrix is not None
        self._matrix_columns(NAME_WIDTHS)
        composition = self.query_one("#composition", DataTable)
        for label, width in (("upstream", 34), ("downstream", 34), ("verdict", 13), ("why", 60)):
            composition.add_column(label, width=width)

    def _matrix_columns(self, names: tuple[int, int]) -> None:
        """The matrix's columns, the agent and skill names ``names`` wide."""
        assert self.matrix is not None
        table = self.query_one("#matrix", DataTable)
        table.add_column("agent", width=names[0], key="agent")
        table.add_column("skill", width=names[1], key="skill")
        table.add_column("steps\n1-11", width=_STEPS_WIDTH, key=_STEPS)
        for column in self.matrix.verdict_columns:
            table.add_column(heading(column), width=_VERDICT_WIDTH, key=column.key)
        self._names = names

    def _name_widths(self, table: DataTable[Any], matrix: Matrix) -> tuple[int, int]:
        """The agent and skill columns' widths: their narrow default, widened into the width
        the verdict columns leave free, up to the longest name (a wide terminal shows whole
        names; a narrow one cuts them, never a verdict)."""
        padding = 2 * table.cell_padding
        fixed = _STEPS_WIDTH + _VERDICT_WIDTH * len(matrix.verdict_columns)
        fixed += padding * (len(matrix.verdict_columns) + 3) + 2  # and a vertical scrollbar
        free = table.scrollable_content_region.width - fixed - sum(NAME_WIDTHS)
        wanted = [
            max((cell_len(name) for name in names), default=0) - base
            for names, base in (
                ([row.agent for row in matrix.rows], NAME_WIDTHS[0]),
                ([row.skill or "(card)" for row in matrix.rows], NAME_WIDTHS[1]),
            )
        ]
        extra = [0, 0]
        free = max(free, 0)
        # Half each first, then what one leaves to the other.
        for index in (0, 1):
            extra[index] = min(max(wanted[index], 0), free // 2)
        left = free - sum(extra)
        for index in (0, 1):
            more = min(max(wanted[index] - extra[index], 0), left)
            extra[index] += more
            left -= more
        return NAME_WIDTHS[0] + extra[0], NAME_WIDTHS[1] + extra[1]

    def on_resize(self) -> None:
        if self.matrix is not None:
            self._rebuild(self.query_one("#matrix", DataTable), self.matrix)

    # -- redraw ------------------------------------------------------------------------------
    def on_matrix_changed(self, message: MatrixChanged) -> None:
        self.redraw(message.row)

    def redraw(self, row: Row | None = None) -> None:
        """Update one row in place, or rebuild the table when rows were added."""
        matrix = self.matrix
        if matrix is None:
            return
        self.query_one("#matrix-title", Static).update(progress(matrix, self.policy))
        table = self.query_one("#matrix", DataTable)
        if row is not None and row in self._row_keys:
            for key, value in self._cells(row).items():
                table.update_cell(str(id(row)), key, value)
        else:
            self._rebuild(table, matrix)
        if matrix.finished:
            self._show_composition(matrix)
        self._show_detail()

    def _cells(self, row: Row) -> dict[str, Any]:
        assert self.matrix is not None
        cells: dict[str, Any] = {
            "agent": self.policy.literal_text(row.agent),
            "skill": self.policy.literal_text(row.skill or "(card)"),
            _STEPS: steps_strip(row, self.matrix),
        }
        for column in self.matrix.verdict_columns:
            cells[column.key] = verdict_mark(row.cells[column.key])
        return cells

    def _rebuild(self, table: DataTable[Any], matrix: Matrix) -> None:
        cursor = table.cursor_coordinate
        names = self._name_widths(table, matrix)
        table.clear(columns=names != self._names)
        if names != self._names:
            self._matrix_columns(names)
        self._row_keys = list(matrix.rows)
        for row in self._row_keys:
            table.add_row(*self._cells(row).values(), key=str(id(row)))
        if self._row_keys:
            table.cursor_coordinate = table.validate_cursor_coordinate(cursor)

    def _show_composition(self, matrix: Matrix) -> None:
        table = self.query_one("#composition", DataTable)
        if table.row_count:
            return
        self._pairs = sorted(matrix.composition, key=lambda p: p.status != "allowed")
        for pair in self._pairs:
            word, style = PAIR_LOOK.get(pair.status, PAIR_LOOK["unavailable"])
            why = pair.summary
            if pair.differing:
                why = "differ: " + ", ".join(pair.differing)
                why += " (" + "; ".join(pair.look_alike) + ")" if pair.look_alike else ""
            table.add_row(
                self.policy.literal_text(pair.upstream.label),
                self.policy.literal_text(pair.downstream.label),
                Content.styled(word, style),
                self.policy.literal(why),
            )
        if matrix.composition_not_listed:  # the table stops at the core's limit: say so
            more = Content.styled(not_judged(matrix), "bold $warning")
            table.add_row("…", "", Content.styled("not listed", "$warning"), more)

    # -- the selected cell -------------------------------------------------------------------
    def _selected(self) -> tuple[Row, str, Cell] | None:
        table = self.query_one("#matrix", DataTable)
        if self.matrix is None or not self._row_keys:
            return None
        row_index, column_index = table.cursor_coordinate
        if not 0 <= row_index < len(self._row_keys):
            return None
        row = self._row_keys[row_index]
        keys = ["agent", "skill", _STEPS, *(c.key for c in self.matrix.verdict_columns)]
        key = keys[min(max(column_index, 0), len(keys) - 1)]
        if key in ("agent", "skill", _STEPS):
            return row, _STEPS, steps_cell(row, self.matrix)
        return row, key, row.cells[key]

    def _show_detail(self) -> None:
        panel = self.query_one("#matrix-detail", Static)
        selected = self._selected()
        if selected is None or self.matrix is None:
            panel.update("Reading the agents' cards…")
            return
        if not self._chosen:
            panel.update(CHOOSE_HINT)
            return
        row, key, cell = selected
        column = next((c for c in self.matrix.verdict_columns if c.key == key), None)
        panel.update(detail(row, column, cell, self.policy))

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        # The table starts (and is rebuilt) at the first cell: only a move is a choice.
        self._chosen = self._chosen or event.coordinate != Coordinate(0, 0)
        self._show_detail()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # The composition table highlights its first pair when it is filled, hidden or not:
        # the panel follows it only while it is shown.
        if not self.has_class("composition"):
            return
        if event.data_table.id == "composition" and event.cursor_row < len(self._pairs):
            panel = self.query_one("#matrix-detail", Static)
            panel.update(pair_detail(self._pairs[event.cursor_row], self.policy))

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        selected = self._selected()
        if selected is None:
            return
        key, cell = selected[1], selected[2]
        if cell.session is None:
            reason = "it is still running" if not cell.done else "no run was needed for it"
            self.notify(f"This cell has no session: {reason}.", severity="warning")
            return
        # A probe cell opens on the Probe screen (its grades), any other on the Steps screen.
        mode = "probe" if key == PROBE_KEY else "steps"
        self.sia.open_session_file(Path(cell.session), mode)

    # -- actions -----------------------------------------------------------------------------
    def action_toggle_composition(self) -> None:
        """Show the composition table instead of the matrix, or back."""
        if self.matrix is None or not self.matrix.finished:
            self.notify("The composition table comes once every cell has run.")
            return
        self.toggle_class("composition")
        if self.has_class("composition"):
            table = self.query_one("#composition", DataTable)
            table.focus()
            if self._pairs:
                pair = self._pairs[min(table.cursor_row, len(self._pairs) - 1)]
                self.query_one("#matrix-detail", Static).update(pair_detail(pair, self.policy))
        else:
            self.query_one("#matrix", DataTable).focus()
            self._show_detail()

    def action_export(self) -> None:
        """Write the reports next to the sessions."""
        launch = self.launch
        if self.matrix is None or launch is None:
            return
        self._export(self.matrix, launch.save_dir)

    @work(thread=True, exclusive=True, group="matrix-export")
    def _export(self, matrix: Matrix, folder: Path) -> None:
        from sia_tui.core.output import terminal_json

        try:
            folder.mkdir(parents=True, exist_ok=True)
            html, markdown = folder / "matrix.html", folder / "matrix.md"
            atomic_write(html, matrix_to_html(matrix, base=folder))
            atomic_write(markdown, matrix_to_markdown(matrix, base=folder))
            atomic_write(folder / "matrix.json", terminal_json(matrix_to_json(matrix)) + "\n")
            write_junit(folder / "matrix.junit.xml", matrix_junit_suites(matrix))
        except OSError as exc:
            self.app.call_from_thread(
                self.notify,
                f"Export failed: {exc}",
                severity="error",
            )
            return
        self.app.call_from_thread(
            self.notify,
            f"Exported matrix.html, .md, .json and .junit.xml to {folder}",
            title="Matrix exported",
        )
