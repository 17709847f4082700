"""A yes/no dialog, e.g. before invoking a skill that may act (RULES SID5)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button

from sia_tui.tui.widgets.literal import LiteralStatic


class ConfirmScreen(ModalScreen[bool]):
    """Returns True only when the user explicitly confirms."""

    BINDINGS = [
        Binding("escape,n", "answer(False)", "Cancel", id="confirm.no"),
        Binding("y", "answer(True)", "Confirm", id="confirm.yes"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 70; max-width: 100%; height: auto; border: thick $warning;
        background: $surface; padding: 1 2;
    }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """

    def __init__(self, question: Content, yes_label: str = "Send (y)") -> None:
        super().__init__()
        self.question = question
        """What is being confirmed (already safe content)."""
        self.yes_label = yes_label
        """The confirming button's text (``Delete (y)``...)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield LiteralStatic(self.question)
            with Horizontal():
                yield Button(Content(self.yes_label), variant="warning", id="yes")
                yield Button("Cancel (n)", variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def consent_question(skill: Content, reason: str, sends: str) -> Content:
    """The question asked before a skill that may act is sent a request (RULES SID5):
    what its document declares, that this is no authorization, and what would be sent.

    ``skill`` is agent text already made literal; ``reason`` is ``ConsentNeed.reason``.
    """
    return Content.assemble(
        skill,
        " may act: ",
        (reason, "bold $warning"),
        ". The document describes that; it does not authorize it (RULES SID5).\n\n",
        sends,
    )
