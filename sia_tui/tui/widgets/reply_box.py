"""The turns of a multi-turn task on Results: each question the agent asked (its status
message, shown literally) with the reply sent, and a box to answer the open one.

The reply is one text part, or with "JSON data" checked one data part (strict JSON); it
is never validated against the input schema (RULES INV11), and the panel says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Checkbox, Input

from sia_tui.core.errors import SiaError
from sia_tui.core.jsonkit import loads
from sia_tui.core.run import UNVALIDATED, Reply, Run, Turn
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.widgets.literal import LiteralInput, LiteralStatic


class ReplyBox(Vertical):
    """The turns so far and, while the task waits, the reply input (Enter or ctrl+j sends)."""

    BINDINGS = [
        Binding("ctrl+j", "send", "Send reply", id="results.reply"),
        Binding(
            "escape",
            "leave",
            "Leave reply",
            show=False,
            id="results.reply_leave",
            tooltip="Focus the result; then the number keys switch screens",
        ),
    ]

    DEFAULT_CSS = """
    ReplyBox { height: auto; max-height: 16; border: round $warning; padding: 0 1; }
    ReplyBox #turns { height: auto; max-height: 10; }
    ReplyBox #reply-row { height: auto; }
    ReplyBox #reply-input { width: 1fr; }
    ReplyBox #reply-json { width: auto; }
    """

    @dataclass
    class Sent(Message):
        """The user's reply to the open question, ready for ``Procedure.reply``."""

        reply: Reply

    def compose(self) -> ComposeResult:
        yield LiteralStatic(id="turns")
        with Horizontal(id="reply-row"):
            yield LiteralInput(
                placeholder="your reply; Enter or ctrl+j sends, Esc leaves", id="reply-input"
            )
            yield Checkbox("JSON data", id="reply-json", compact=True)

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._focused_for: Turn | None = None
        """The question the input last took the focus for."""

    def on_mount(self) -> None:
        self.border_title = "Turns"
        self.display = False

    def show(self, run: Run | None, policy: DisplayPolicy, *, read_only: bool) -> None:
        """The run's turns; the input only while its task waits and a reply can be sent."""
        turns = run.turns if run is not None else []
        self.display = bool(turns)
        waiting = run is not None and run.verdict.waiting_for_reply and not read_only
        row = self.query_one("#reply-row")
        if row.display and not waiting and self.has_focus_within:
            # Answered: the input goes with the focus in it (Textual passed it to the hidden
            # checkbox beside it, and ctrl+j still offered "Send reply"): to the result.
            self.call_after_refresh(self.action_leave)
        row.display = waiting
        self.border_title = "The agent asks" if waiting else "Turns"
        asked = run.verdict.open_turn if run is not None and waiting else None
        if asked is not None and asked is not self._focused_for:
            # A new question: the reply is what the user types next (once per question, so
            # a user who moved away is not pulled back by every redraw).
            self._focused_for = asked
            self.call_after_refresh(self.query_one("#reply-input").focus)
        literal = policy.literal
        lines: list[Content] = []
        for number, turn in enumerate(turns, 1):
            lines.append(
                Content.assemble(
                    (f"{number}. ", "bold"),
                    literal(turn.state, style="bold $warning"),
                    "  ",
                    literal(turn.question, multiline=True),
                )
            )
            if turn.answered:
                lines.append(
                    Content.assemble(
                        (f"   reply ({turn.reply_kind} part, ", "$text-muted"),
                        (UNVALIDATED, "italic $text-muted"),
                        ("): ", "$text-muted"),
                        literal(turn.reply_text()),
                    )
                )
            elif waiting:
                lines.append(Content.styled(f"   reply below: {UNVALIDATED}", "italic $text-muted"))
        self.query_one("#turns", LiteralStatic).update(Content("\n").join(lines))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def action_leave(self) -> None:
        """Out of the reply (it took the focus when the agent asked): to the next pane."""
        self.screen.focus_next("BlocksView")

    def action_send(self) -> None:
        """Send the input's text as the reply: a text part, or a data part when checked."""
        field = self.query_one("#reply-input", Input)
        text = field.value
        if self.query_one("#reply-json", Checkbox).value:
            try:
                reply = Reply.data(loads(text, source="reply"))
            except SiaError as exc:  # located, shown, nothing sent
                self.notify(str(exc), title="The reply is not JSON", severity="error")
                return
        else:
            reply = Reply.text(text)
        field.value = ""
        self.post_message(self.Sent(reply))
