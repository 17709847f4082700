"""Before a save: what will be redacted and where; True saves, False cancels."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input

from sia_tui.core.redaction import RedactionHit, placeholder
from sia_tui.tui.display import policy_of
from sia_tui.tui.widgets.literal import LiteralInput, LiteralStatic
from sia_tui.tui.widgets.literal_table import LiteralTable


class RedactionPreviewScreen(ModalScreen[bool]):
    """Lists every redaction a save will make (placeholder, location) and asks to confirm.

    | key | action |
    |---|---|
    | `y` / `enter` | save with these redactions |
    | `n` / `escape` | cancel |

    The destination is an editable field with the focus; Enter in it saves there.
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
    /* Without redactions there is no table to fill the 80 %: as tall as what it says. */
    RedactionPreviewScreen > Vertical.-no-redactions { height: auto; max-height: 80%; }
    RedactionPreviewScreen DataTable { height: 1fr; }
    RedactionPreviewScreen Horizontal { height: auto; margin-top: 1; }
    RedactionPreviewScreen Button { margin-right: 2; }
    RedactionPreviewScreen #destination { margin-bottom: 1; }
    """

    def __init__(
        self, hits: Sequence[RedactionHit], destination: str, saves: str = "", what: str = "session"
    ) -> None:
        super().__init__()
        self.what = what
        """What is saved: "session" (ctrl+s), "HAR" (f9)."""
        self.saves = saves
        """What the file will hold, when more than the run on screen ("" says nothing)."""
        self.hits = list(hits)
        """What the save will redact (from ``preview_redactions``)."""
        self.destination = destination
        """Where the session will be written (the user may edit it)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="" if self.hits else "-no-redactions"):
            yield LiteralStatic(f"Save {self.what} to (edit the path if you like):", id="title")
            yield LiteralInput(self.destination, id="destination")
            if self.saves:
                yield LiteralStatic(self.saves, id="saves")
            if self.hits:
                yield LiteralStatic(
                    f"{len(self.hits)} redactions: each secret becomes a placeholder.", id="summary"
                )
            else:
                yield LiteralStatic("No secrets were found to redact.", id="summary")
            yield LiteralTable(id="redactions", cursor_type="row", zebra_stripes=True)
            with Horizontal():
                yield Button("Save (y)", variant="primary", id="save")
                yield Button("Cancel (n)", id="cancel")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # Explicit widths: cells are Content, which the table does not measure.
        table.add_column("placeholder", width=30)
        table.add_column("where", width=60)
        literal = policy_of(self.app).literal
        for hit in self.hits:
            table.add_row(literal(placeholder(hit.name)), literal(hit.where))
        table.display = bool(self.hits)  # no empty headings under "No secrets were found"
        # The path field takes the focus: typing goes into it, so `n` there is a letter,
        # not "cancel" (y/n answer once the focus is on the table or the buttons).
        field = self.query_one("#destination", Input)
        field.focus()
        field.cursor_position = len(field.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.destination = event.value.strip()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_answer(True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "save")

    def action_answer(self, answer: bool) -> None:
        """Save (True) or cancel (False); an empty path cannot be saved to."""
        if answer and not self.destination:
            self.notify("Type a file name first.", severity="warning")
            return
        self.dismiss(answer)
