"""F1: a small Markdown table of the focused pane's bindings."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Markdown

from sia_tui.tui.modes import ModeSpec

#: What a person calls a widget, by the Textual class it is (the nearest in its MRO).
_KINDS = {
    "OptionList": "list",
    "Select": "picker",
    "SelectCurrent": "picker",
    "DataTable": "table",
    "TextArea": "editor",
    "Input": "field",
    "Checkbox": "checkbox",
    "Button": "button",
    "Tree": "tree",
}


def pane_name(widget: Widget) -> str:
    """The focused pane as a person names it (``skills list``), never a class name. Made of
    the widget's id and kind, never of its text: a title may be agent text."""
    kind = next((_KINDS[c.__name__] for c in type(widget).__mro__ if c.__name__ in _KINDS), "pane")
    words = re.sub(r"[-_]+", " ", widget.id or "").strip()
    if not words or words == kind:
        return kind
    return words if kind in words.split() or words.endswith("pane") else f"{words} {kind}"


def help_title(screen: Screen[Any], focused: Widget | None, specs: Iterable[ModeSpec]) -> str:
    """F1's title: the screen's tab label (a dialog's name), then the focused pane's name."""
    mode = getattr(screen, "mode_name", "")
    title = next((spec.title for spec in specs if spec.name == mode), "")
    if not title:
        words = re.findall(r"[A-Z][a-z]*", type(screen).__name__.removesuffix("Screen"))
        title = " ".join(words).capitalize() or "Help"
    return title if focused is None else f"{title}: {pane_name(focused)}"


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
