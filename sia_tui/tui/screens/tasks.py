"""The target's tasks (ListTasks, A2A 1.0) in a dialog; Enter opens one read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from sia_tui.core.a2a import Task
from sia_tui.core.task_state import TaskState
from sia_tui.tui.widgets.literal import LiteralStatic
from sia_tui.tui.widgets.literal_table import LiteralTable

if TYPE_CHECKING:
    from sia_tui.core.engine import TaskListing
    from sia_tui.tui.display import DisplayPolicy
    from sia_tui.tui.engine_port import Engine

#: The columns: the task id, its state (as wide as the longest, TASK_STATE_INPUT_REQUIRED),
#: how many artifacts it holds, its context.
_COLUMNS = (
    ("task", 38),
    ("state", max(len(state) for state in TaskState)),
    ("artifacts", 9),
    ("context", 38),
)


class TasksScreen(ModalScreen[Task | None]):
    """One page of the agent's tasks, newest first; Enter returns the chosen task."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="tasks.close"),
        Binding("n", "next_page", "Next page", id="tasks.next", tooltip="The next page"),
        Binding("r", "reload", "Reload", id="tasks.reload", tooltip="The first page again"),
    ]
    DEFAULT_CSS = """
    TasksScreen { align: center middle; }
    TasksScreen > Vertical {
        width: 90%; height: 80%; border: thick $accent; background: $surface; padding: 0 1;
    }
    TasksScreen #tasks-note { height: auto; max-height: 4; }
    TasksScreen DataTable { height: 1fr; }
    """

    def __init__(self, engine: Engine, policy: DisplayPolicy) -> None:
        super().__init__()
        self._engine = engine
        self._policy = policy
        self.listing: TaskListing | None = None
        """The page shown (None while it loads)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield LiteralStatic(
                Content.styled("Listing the agent's tasks…", "$accent"), id="tasks-note"
            )
            yield LiteralTable(id="tasks", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = "The agent's tasks (ListTasks)"
        table = self.query_one(DataTable)
        for label, width in _COLUMNS:
            table.add_column(label, width=width)
        self.load()

    @work(exclusive=True, group="tasks")
    async def load(self, page_token: str | None = None) -> None:
        """Ask the agent for a page (the engine never raises for what the agent does)."""
        self.show(await self._engine.list_tasks(page_token))

    def show(self, listing: TaskListing) -> None:
        """Put the page in the table, and what it is (or why it is empty) above it."""
        self.listing = listing
        literal = self._policy.literal
        table = self.query_one(DataTable)
        table.clear()
        for task in listing.tasks:
            table.add_row(
                literal(task.id),
                literal(task.state),
                str(len(task.artifacts)),
                literal(task.context_id or "-"),
            )
        note = self.query_one("#tasks-note", Static)
        if listing.error is not None:
            note.update(literal(listing.error, multiline=True, style="$error"))
            return
        total = "" if listing.total_size is None else f" of {listing.total_size}"
        count = f"{len(listing.tasks)}{total} task(s), newest first."
        parts = [count, "Enter opens one read-only; Esc closes."]
        if listing.next_page_token:
            parts.append("n: the next page.")
        if listing.unreadable:
            parts.append(f"{listing.unreadable} task(s) could not be read: {listing.problem}")
        note.update(literal(" ".join(parts), multiline=True))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if self.listing is not None and 0 <= event.cursor_row < len(self.listing.tasks):
            self.dismiss(self.listing.tasks[event.cursor_row])

    def action_next_page(self) -> None:
        if self.listing is None or not self.listing.next_page_token:
            self.notify("This is the last page.")
            return
        self.load(self.listing.next_page_token)

    def action_reload(self) -> None:
        self.load()
