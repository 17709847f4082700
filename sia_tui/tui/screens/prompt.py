"""A one-line input dialog (e.g. a value to mark secret); returns the text or None."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from sia_tui.tui.widgets.literal import LiteralInput, LiteralStatic


class PromptScreen(ModalScreen[str | None]):
    """Enter returns the text typed; Esc returns None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="prompt.cancel")]
    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical {
        width: 80; max-width: 100%; height: auto; border: thick $accent;
        background: $surface; padding: 1 2;
    }
    PromptScreen #prompt-help { color: $text-muted; margin-bottom: 1; }
    """

    def __init__(self, title: str, help_text: str = "", *, password: bool = False) -> None:
        super().__init__()
        self.title_text = title
        """The question."""
        self.help_text = help_text
        """One line under it."""
        self.password = password
        """Mask what is typed (secrets)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield LiteralStatic(self.title_text, id="prompt-title")
            yield LiteralStatic(self.help_text, id="prompt-help")
            yield LiteralInput(id="prompt-input", password=self.password)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value or None)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)
