"""The History screen: autosaved runs in a table; open one read-only or delete it."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from sia_tui.core.session import history
from sia_tui.tui.display import literal
from sia_tui.tui.screens.base import SiaAppMixin
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.widgets.target_header import TargetHeader

#: The recorded outcome (``RunOutcome`` values) in the table's words and colours.
_OUTCOME_WORDS = {"negative_test_passed": "negative ✔", "incomplete": "incomplete"}
_OUTCOME_STYLES = {
    "failed": "bold $error",
    "passed": "$success",
    "negative_test_passed": "$success",
}


class HistoryScreen(Screen[Path | None]):
    """Lists the history (newest first); dismisses with the chosen session file, or None.

    | key | action |
    |---|---|
    | `enter` / `o` | open the selected run (read-only) |
    | `d` / `delete` | delete the selected run |
    | `r` | reload the list |
    | `escape` | back |
    """

    BINDINGS = [
        Binding("o", "open", "Open", id="history.open"),
        Binding("d,delete", "delete", "Delete", id="history.delete"),
        Binding("r", "reload", "Reload", id="history.reload"),
        Binding("escape", "back", "Back", id="history.back"),
    ]
    DEFAULT_CSS = """
    HistoryScreen DataTable { height: 1fr; }
    HistoryScreen #history-empty { padding: 1 2; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[history.HistoryEntry] = []
        """The entries shown, in table order."""

    def compose(self) -> ComposeResult:
        yield Static("", id="history-empty")
        yield DataTable(id="history", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # Explicit widths: cells are Content, which the table does not measure.
        for label, width in (
            ("time (UTC)", 19),
            ("target", 31),
            ("skill", 30),
            ("outcome", 13),
            ("failing step", 12),
        ):
            table.add_column(label, width=width)
        self.action_reload()
        table.focus()

    def action_reload(self) -> None:
        """Read the history index again."""
        self.entries = history.list_history()
        table = self.query_one(DataTable)
        table.clear()
        for entry in self.entries:
            table.add_row(
                self.when(entry),
                literal(entry.target),
                literal(entry.skill or "-"),
                Content.styled(
                    _OUTCOME_WORDS.get(entry.outcome, entry.outcome),
                    _OUTCOME_STYLES.get(entry.outcome, "$warning"),
                ),
                str(entry.failed_step) if entry.failed_step else "-",
                key=entry.id,
            )
        empty = self.query_one("#history-empty", Static)
        empty.update(
            "" if self.entries else literal(f"No saved runs yet in {history.history_dir()}")
        )
        empty.display = not self.entries

    def when(self, entry: history.HistoryEntry) -> str:
        """The time column for ``entry``."""
        return entry.when

    def _selected(self) -> history.HistoryEntry | None:
        table = self.query_one(DataTable)
        if not self.entries or table.cursor_row < 0 or table.cursor_row >= len(self.entries):
            return None
        return self.entries[table.cursor_row]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Dismiss with the selected entry's session file."""
        entry = self._selected()
        if entry is not None:
            self.dismiss(history.entry_path(entry))

    def action_delete(self) -> None:
        """Delete the selected entry and its file."""
        entry = self._selected()
        if entry is not None:
            self.delete_entry_now(entry)

    def delete_entry_now(self, entry: history.HistoryEntry) -> None:
        """Delete ``entry`` and its file, then show the list again."""
        history.delete_entry(entry.id)
        self.notify(f"deleted {entry.id}")
        self.action_reload()

    def action_back(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)


class HistoryMode(SiaAppMixin, HistoryScreen):
    """Mode 7: the history inside the app; Enter opens a run read-only, ``d`` asks first."""

    HELP = (
        "Every finished run is autosaved here (redacted). Enter opens one read-only: "
        "every screen shows the recorded bytes and nothing is sent. d deletes (asks first)."
    )

    def compose(self) -> ComposeResult:
        yield TargetHeader(id="target-header")
        yield from super().compose()

    def on_screen_resume(self) -> None:
        self.refresh_run()
        self.query_one(DataTable).focus()

    def refresh_run(self) -> None:
        """Redraw the header and re-read the list (an autosave may have added a run)."""
        self.query_one(TargetHeader).show(
            self.sia.current_run, snapshot_mode=self.sia.snapshot_mode, read_only=self.sia.read_only
        )
        cursor = self.query_one(DataTable).cursor_row
        self.action_reload()
        if self.entries:
            self.query_one(DataTable).move_cursor(row=min(max(cursor, 0), len(self.entries) - 1))

    def when(self, entry: history.HistoryEntry) -> str:
        # Snapshots must not change with the clock.
        return "<time>" if self.sia.snapshot_mode else entry.when

    def action_open(self) -> None:
        """Open the selected run read-only, on the Steps screen."""
        entry = self._selected()
        if entry is not None:
            self.sia.open_session_file(history.entry_path(entry))

    def action_delete(self) -> None:
        """Ask, then delete the selected run and its file."""
        entry = self._selected()
        if entry is None:
            return
        question = Content.assemble(
            "Delete the saved run of ",
            literal(entry.skill or "-", style="bold"),
            " against ",
            literal(entry.target, style="bold"),
            f" ({self.when(entry)})? The file is removed.",
        )
        self.app.push_screen(
            ConfirmScreen(question, yes_label="Delete (y)"), partial(self._delete_confirmed, entry)
        )

    def _delete_confirmed(self, entry: history.HistoryEntry, yes: bool | None) -> None:
        if yes:
            self.delete_entry_now(entry)

    def action_back(self) -> None:
        """Back to the Overview."""
        self.app.switch_mode("overview")
