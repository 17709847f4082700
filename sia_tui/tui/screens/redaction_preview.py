"""Before a save: what will be redacted and where; True saves, False cancels."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from sia_tui.core.redact import RedactionHit, placeholder
from sia_tui.tui.safe_text import literal


class RedactionPreviewScreen(ModalScreen[bool]):
    """Lists every redaction a save will make (placeholder, location) and asks to confirm.

    | key | action |
    |---|---|
    | `y` / `enter` | save with these redactions |
    | `n` / `escape` | cancel |
    """

    BINDINGS = [
        Binding("escape,n", "answer(False)", "Cancel", id="redaction.cancel"),
        Binding("y", "answer(True)", "Save", id="redaction.save"),
    ]
    DEFAULT_CSS = """
    RedactionPreviewScreen { align: center middle; }
    RedactionPreviewScreen > Vertical {
        width: 100; max-width: 95%; height: 80%; border: thick $accent; background: $surface;
        padding: 1 2;
    }
    RedactionPreviewScreen DataTable { height: 1fr; }
    RedactionPreviewScreen Horizontal { height: auto; margin-top: 1; }
    RedactionPreviewScreen Button { margin-right: 2; }
    """

    def __init__(self, hits: Sequence[RedactionHit], destination: str) -> None:
        super().__init__()
        self.hits = list(hits)
        """What the save will redact (from ``preview_redactions``)."""
        self.destination = destination
        """Where the session will be written."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(f"Save session to {self.destination}"), id="title")
            if self.hits:
                yield Static(f"{len(self.hits)} redactions: each secret becomes a placeholder.",
                             id="summary")
            else:
                yield Static("No secrets were found to redact.", id="summary")
            yield DataTable(id="redactions", cursor_type="row", zebra_stripes=True)
            with Horizontal():
                yield Button("Save (y)", variant="primary", id="save")
                yield Button("Cancel (n)", id="cancel")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("placeholder", "where")
        for hit in self.hits:
            table.add_row(literal(placeholder(hit.name)), literal(hit.where))
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "save")

    def action_answer(self, answer: bool) -> None:
        """Save (True) or cancel (False)."""
        self.dismiss(answer)
