"""Mode 7: the autosaved runs in a table; open one read-only (Esc comes back) or delete it."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import DataTable, Static

from sia_tui.core.errors import SiaError
from sia_tui.core.session import history, reattach_refusal
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.widgets.columns import Columns, column_widths
from sia_tui.tui.widgets.literal import LiteralStatic
from sia_tui.tui.widgets.literal_table import LiteralTable

if TYPE_CHECKING:
    from sia_tui.agent.mock import RunningMock
    from sia_tui.core.a2a import Task

#: The recorded outcome (``RunOutcome`` values) in the table's words and colours.
_OUTCOME_WORDS = {"negative_test_passed": "negative ✔", "incomplete": "incomplete"}
#: A probe run's outcome (``ProbeReport.outcome``) in the table's words.
_PROBE_WORDS = {"passed": "probes ✔", "failed": "probes ✘", "not_learned": "not learned"}
_OUTCOME_STYLES = {
    "failed": "bold $error",
    "passed": "$success",
    "negative_test_passed": "$success",
}
#: The agent and its skill first: they say what the run was; the URL last (it gets cut).
_COLUMNS: Columns = (
    ("time (UTC)", 19),
    ("agent", None),
    ("skill", None),
    ("outcome", 10),
    ("step", 4),
    ("target", None),
)
#: What the line below the table offers while no mock serves.
_OFFER = "m: serve the selected run as a mock agent on 127.0.0.1 (sia-tui mock)"
#: From this width the target column is shown too.
_WIDE = 110


class HistoryMode(RunScreen):
    """Every finished run, newest first; Enter opens one read-only, ``d`` deletes it."""

    HELP = (
        "Every finished run is autosaved here (redacted), one entry per run. Enter opens "
        "one read-only: every screen shows the recorded bytes and nothing is sent; Esc "
        "comes back to the live run as you left it. a reattaches to a task the run left "
        "running (SubscribeToTask, read-only, no credentials). m serves the run's session "
        "as a mock of the agent it recorded, on 127.0.0.1 (the address is shown below the "
        "table; point a client at it; m again stops it). d deletes (asks first)."
    )
    BINDINGS = [
        Binding("o", "open", "Open", id="history.open", tooltip="Open the run read-only"),
        Binding(
            "a",
            "reattach",
            "Reattach",
            id="history.reattach",
            tooltip="Follow the run's task if it still runs (SubscribeToTask, read-only)",
        ),
        # Offered on the line below the table (the footer is full at 80 columns).
        Binding(
            "m",
            "mock",
            "Serve as mock",
            id="history.mock",
            show=False,
            tooltip="Serve the run's session as the agent it recorded (sia-tui mock)",
        ),
        Binding("d,delete", "delete", "Delete", id="history.delete"),
        Binding("r", "reload", "Reload", id="history.reload"),
        Binding(
            "t",
            "list_tasks",
            "Agent's tasks",
            id="history.tasks",
            tooltip="The target's tasks (ListTasks); open one read-only",
        ),
        Binding("escape", "back", "Back", id="history.back", tooltip="The live run"),
    ]
    ARRIVAL_FOCUS = "DataTable"
    DEFAULT_CSS = """
    HistoryMode DataTable { height: 1fr; }
    HistoryMode #history-empty { padding: 1 2; color: $text-muted; height: auto; }
    HistoryMode #history-mock { padding: 0 1; height: auto; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[history.HistoryEntry] = []
        """The entries shown, in table order."""
        self.mock: RunningMock | None = None
        """The mock serving a run's session (``m``), until ``m`` again or the app ends."""

    def compose_body(self) -> ComposeResult:
        yield LiteralStatic("", id="history-empty")
        yield LiteralTable(id="history", cursor_type="row", zebra_stripes=True)
        yield LiteralStatic("", id="history-mock")

    def on_mount(self) -> None:
        self._add_columns()
        self._show_mock(Content(_OFFER))

    def on_unmount(self) -> None:
        self._stop_mock()

    def _columns(self) -> Columns:
        """The columns that fit: the target (it is in the header) goes on a narrow screen."""
        return _COLUMNS if (self.size.width or 120) >= _WIDE else _COLUMNS[:-1]

    def _add_columns(self) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        # Explicit widths (cells are Content, which the table does not measure), sized to
        # the screen so the outcome stays visible at 80 columns.
        columns = self._columns()
        widths = column_widths(self.size.width or 120, columns, minimum=10)
        for (label, _), width in zip(columns, widths, strict=True):
            table.add_column(label, width=width)

    def on_resize(self, _event: events.Resize) -> None:
        self._add_columns()
        self.action_reload()

    def show_run(self, run: object) -> None:
        """Re-read the list (an autosave may have added or updated a run)."""
        cursor = self.query_one(DataTable).cursor_row
        self.action_reload()
        if self.entries:
            self.query_one(DataTable).move_cursor(row=min(max(cursor, 0), len(self.entries) - 1))

    def action_reload(self) -> None:
        """Read the history index again."""
        self.entries = history.list_history()
        table = self.query_one(DataTable)
        table.clear()
        literal = self.policy.literal
        shown = len(self._columns())
        for entry in self.entries:
            cells = (
                literal(entry.when),
                literal(entry.agent or "-"),
                literal(entry.skill or "-"),
                Content.styled(
                    (_PROBE_WORDS if entry.kind == "probe" else _OUTCOME_WORDS).get(
                        entry.outcome, entry.outcome
                    ),
                    _OUTCOME_STYLES.get(entry.outcome, "$warning"),
                ),
                str(entry.failed_step) if entry.failed_step else "-",
                literal(entry.target),
            )
            table.add_row(*cells[:shown], key=entry.id)
        empty = self.query_one("#history-empty", Static)
        empty.update(
            "" if self.entries else literal(f"No saved runs yet in {history.history_dir()}")
        )
        empty.display = not self.entries

    def _selected(self) -> history.HistoryEntry | None:
        table = self.query_one(DataTable)
        if not self.entries or table.cursor_row < 0 or table.cursor_row >= len(self.entries):
            return None
        return self.entries[table.cursor_row]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Open the selected run read-only, on the Steps screen."""
        entry = self._selected()
        if entry is not None:
            self.sia.open_session_file(history.entry_path(entry))

    def action_reattach(self) -> None:
        """Follow the selected run's task, if it was still running (read-only)."""
        from sia_tui.core.probe import load_checked_session
        from sia_tui.tui.screens.reattach import ReattachScreen

        entry = self._selected()
        if entry is None:
            return
        try:
            session = load_checked_session(history.entry_path(entry))
        except SiaError as exc:
            self.notify(str(exc), title="Cannot open session", severity="error")
            return
        refused = reattach_refusal(session)
        if refused:
            self.notify(f"Nothing to reattach to: {refused}.", title="Reattach")
            return
        self.app.push_screen(ReattachScreen(session, self.policy))

    def action_mock(self) -> None:
        """Serve the selected run's session as a mock agent; stop the one serving first
        (``m`` on a serving run stops it)."""
        if self.mock is not None:
            self._stop_mock()
            self._show_mock(Content(f"Mock stopped. {_OFFER}"))
            return
        entry = self._selected()
        if entry is not None:
            self._start_mock(entry)

    @work(thread=True, exclusive=True, group="history-mock")
    def _start_mock(self, entry: history.HistoryEntry) -> None:
        """Read the session and serve it on 127.0.0.1 (a free port), off the UI thread."""
        from sia_tui.agent.mock import MockConfig, recording, start_mock
        from sia_tui.core.session import load_session

        try:
            session = load_session(history.entry_path(entry))
        except SiaError as exc:
            self.app.call_from_thread(
                self.notify, str(exc), title="Cannot serve session", severity="error"
            )
            return
        config = MockConfig(recording(session), on_unmatched=self._unmatched)
        mock = start_mock(config)
        self.app.call_from_thread(self._serving, entry, mock)

    def _serving(self, entry: history.HistoryEntry, mock: RunningMock) -> None:
        self.mock = mock
        literal = self.policy.literal
        grpc = mock.companion_address
        self._show_mock(
            Content.assemble(
                "Mock of ",
                literal(entry.skill or "-", style="bold"),
                " at ",
                literal(entry.agent or entry.target, style="bold"),
                " serving at ",
                literal(mock.url, style="bold $success"),
                *((" gRPC ", literal(grpc, style="bold $success")) if grpc else ()),
                "  (m: stop)",
            )
        )

    def _unmatched(self, text: str) -> None:
        """A request the session holds no answer to (called on the mock's thread)."""
        self.app.call_from_thread(
            self.app.notify, text, title="Mock: not recorded", severity="warning"
        )

    def _show_mock(self, line: Content) -> None:
        self.query_one("#history-mock", Static).update(line)

    def _stop_mock(self) -> None:
        if self.mock is not None:
            mock, self.mock = self.mock, None
            mock.stop()

    def action_delete(self) -> None:
        """Ask, then delete the selected run and its file."""
        entry = self._selected()
        if entry is None:
            return
        literal = self.policy.literal
        question = Content.assemble(
            "Delete the saved run of ",
            literal(entry.skill or "-", style="bold"),
            " against ",
            literal(entry.agent or entry.target, style="bold"),
            " (",
            literal(entry.when),
            ")? The file is removed.",
        )
        self.app.push_screen(
            ConfirmScreen(question, yes_label="Delete (y)"), partial(self._delete_confirmed, entry)
        )

    def _delete_confirmed(self, entry: history.HistoryEntry, yes: bool | None) -> None:
        if yes:
            history.delete_entry(entry.id)
            self.notify(f"deleted {entry.id}")
            self.action_reload()

    def action_list_tasks(self) -> None:
        """The live target's tasks in a dialog; the chosen one opens read-only on Results."""
        engine = self.sia.engine
        if self.sia.refuse_if_read_only():
            return
        if engine is None or self.sia.current_run is None or self.sia.current_run.card is None:
            self.notify("Retrieve the card first (2, then n): it names the interface.")
            return
        from sia_tui.tui.screens.tasks import TasksScreen

        self.app.push_screen(TasksScreen(engine, self.policy), self._open_task)

    def _open_task(self, task: Task | None) -> None:
        if task is not None:
            self.sia.open_listed_task(task)

    def action_back(self) -> None:
        """Back to the live run (when a recorded one is shown), else to the Overview."""
        if self.sia.has_live_run:
            self.sia.action_back_to_live()
        else:
            self.app.switch_mode("overview")
