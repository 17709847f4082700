"""F1: a small Markdown table of the focused pane's bindings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown


def bindings_markdown(title: str, intro: str, bindings: list[BindingType]) -> str:
    """A Markdown table of bindings (key, action, description)."""
    rows = ["| key | what it does |", "|---|---|"]
    for binding in bindings:
        if not isinstance(binding, Binding) or not binding.description:
            continue
        key = binding.key_display or binding.key
        # The footer shows the short description; the tooltip says it in full.
        what = (
            f"{binding.description}: {binding.tooltip}" if binding.tooltip else binding.description
        )
        rows.append(f"| `{key}` | {what} |")
    body = "\n".join(rows) if len(rows) > 2 else "_No keys of its own._"
    return f"# {title}\n\n{intro}\n\n{body}\n\nPress **Esc** to close."


class HelpScreen(ModalScreen[None]):
    """Shows help for the pane that had focus."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close help", id="help.close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 80; max-width: 100%; height: auto; max-height: 90%; border: thick $primary;
        background: $surface; padding: 0 1;
    }
    """

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown
        """The help text."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(self.markdown)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
