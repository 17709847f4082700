"""Reattach to a recorded run's task from History: its events as SubscribeToTask streams
them, read-only (nothing but the subscription is sent, and no credential)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen

from sia_tui.core.a2a import StreamEvent
from sia_tui.core.session import LoadedSession, Reattached, reattach_task
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.screens.results import event_line
from sia_tui.tui.widgets.literal import LiteralStatic

#: Events kept on screen: the newest ones (a task that floods updates stays readable).
MAX_SHOWN = 500


class ReattachScreen(ModalScreen[None]):
    """The task's events as they arrive, until its final state; Esc closes (and stops)."""

    BINDINGS = [Binding("escape", "close", "Close", id="reattach.close")]
    DEFAULT_CSS = """
    ReattachScreen { align: center middle; }
    ReattachScreen > Vertical {
        width: 100; max-width: 100%; height: 80%; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    ReattachScreen #reattach-head { height: auto; margin-bottom: 1; }
    """

    def __init__(self, session: LoadedSession, policy: DisplayPolicy) -> None:
        super().__init__()
        self.session = session
        self.policy = policy
        self.lines: list[Content] = []
        """One line per event received, then how it ended."""
        self.followed: Reattached | None = None
        """The subscription's result once it ended."""

    def compose(self) -> ComposeResult:
        task = self.session.run.task
        head = Content.assemble(
            ("Reattached to task ", "bold"),
            self.policy.literal(task.id if task else "?", style="bold $accent"),
            ("  (SubscribeToTask, read-only: nothing else is sent; Esc closes)", "$text-muted"),
        )
        with Vertical():
            yield LiteralStatic(head, id="reattach-head")
            with VerticalScroll():
                yield LiteralStatic(
                    Content.styled("waiting for the snapshot…"), id="reattach-events"
                )

    def on_mount(self) -> None:
        self.run_worker(self._follow(), exclusive=True, group="reattach")

    async def _follow(self) -> None:
        self.followed = await reattach_task(self.session, on_event=self._add)
        if self.followed.error is not None:
            self.lines.append(
                Content.styled("✘ ", "bold $error") + self.policy.literal(self.followed.error)
            )
        else:
            task = self.followed.task
            last = self.followed.events[-1] if self.followed.events else None
            state = (last.state if last else None) or (task.state if task else "?")
            self.lines.append(Content.styled(f"■ the stream ended: {state}", "bold $accent"))
        self._show()

    def _add(self, event: StreamEvent) -> None:
        self.lines.append(event_line(event, self.policy))
        del self.lines[:-MAX_SHOWN]
        self._show()

    def _show(self) -> None:
        self.query_one("#reattach-events", LiteralStatic).update(Content("\n").join(self.lines))

    def action_close(self) -> None:
        """Close: the subscription stops with the screen (the task itself goes on)."""
        self.dismiss(None)
