"""The header tab bar: every screen's key once, the current one highlighted (as in Posting).

The footer below is left to the focused pane's own keys. The bar fits any width: full
titles when they fit, short ones at 80 columns (the current tab's too when its full title
would leave the others bare keys), and at worst the keys alone with the current screen's
title. Each tab is clickable.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from textual.content import Content
from textual.widget import Widget

from sia_tui.tui.modes import MODE_SPECS, ModeSpec

#: Keys every screen shares, shown at the right when there is room (the footer has ^p).
_HINTS = "^s save  F1 keys"

Label = Callable[[ModeSpec], str]


def _full(spec: ModeSpec) -> str:
    return f"{spec.key} {spec.title}"


def _short(spec: ModeSpec) -> str:
    return f"{spec.key} {spec.short}"


def _key(spec: ModeSpec) -> str:
    return spec.key


#: (the other tabs, the current tab), from the most to the least room needed. Every tab
#: labelled beats the current one in full: at 80 columns "1 Overview" would leave the nine
#: others bare digits until a screen with a shorter title is chosen.
_LAYOUTS: tuple[tuple[Label, Label], ...] = (
    (_full, _full),
    (_short, _full),
    (_short, _short),
    (_key, _full),
)


class ModeTabs(Widget):
    """One line: `` 1 Overview  2 Steps … `` with the current mode in reverse."""

    DEFAULT_CSS = """
    ModeTabs {
        height: 1; background: $panel; color: $text-muted;
        link-style: none; link-style-hover: bold; link-background-hover: $panel-lighten-1;
    }
    """

    def __init__(self, current: str) -> None:
        super().__init__(id="mode-tabs")
        self.current = current
        """The mode of the screen this bar sits on."""

    def render(self) -> Content:
        width = self.size.width or 80
        for others, current in _LAYOUTS:
            tabs = self._tabs(others, current)
            if tabs.cell_length <= width:
                break
        gap = width - tabs.cell_length - cell_len(_HINTS) - 1
        if gap >= 2:
            tabs = tabs + Content(" " * gap) + Content.styled(_HINTS, "$text-muted")
        return tabs

    def _tabs(self, label: Label, current: Label) -> Content:
        parts = []
        # The app's own list: plugfest mode adds the Matrix screen.
        specs: tuple[ModeSpec, ...] = getattr(self.app, "MODE_SPECS", MODE_SPECS)
        for spec in specs:
            action = f"@click=app.switch_mode('{spec.name}')"
            if spec.name == self.current:
                tab = Content.styled(f" {current(spec)} ", "bold $background on $accent")
            else:
                key, _, name = label(spec).partition(" ")
                tab = Content.assemble(" ", (key, "bold $accent"), (f" {name}" if name else ""))
            parts.append(tab.stylize(action))
        return Content("").join(parts)
