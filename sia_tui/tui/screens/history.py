"""The History screen: autosaved runs in a table; open one read-only or delete it."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from sia_tui.core.session import history
from sia_tui.tui.safe_text import literal


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
        table.add_columns("time (UTC)", "target", "skill", "outcome", "failing step")
        self.action_reload()
        table.focus()

    def action_reload(self) -> None:
        """Read the history index again."""
        self.entries = history.list_history()
        table = self.query_one(DataTable)
        table.clear()
        for entry in self.entries:
            table.add_row(
                entry.when, literal(entry.target), literal(entry.skill or "-"),
                entry.outcome, str(entry.failed_step) if entry.failed_step else "-",
                key=entry.id,
            )
        empty = self.query_one("#history-empty", Static)
        empty.update("" if self.entries else
                     literal(f"No saved runs yet in {history.history_dir()}"))
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
        """Dismiss with the selected entry's session file."""
        entry = self._selected()
        if entry is not None:
            self.dismiss(history.entry_path(entry))

    def action_delete(self) -> None:
        """Delete the selected entry and its file."""
        entry = self._selected()
        if entry is None:
            return
        history.delete_entry(entry.id)
        self.notify(f"deleted {entry.id}")
        self.action_reload()

    def action_back(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)
