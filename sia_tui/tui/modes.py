"""The screens ("modes") as data: one ``ModeSpec`` row per screen generates the app's modes,
their number keys, the header tab bar, the palette's ``mode: …`` commands and the key table
in docs/TUI.md (checked by a test). Adding a screen is adding a row here.

Screens are imported on first use, so starting the app loads only the screen it opens on.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

if TYPE_CHECKING:
    from textual.screen import Screen

_SCREENS = "sia_tui.tui.screens"


@dataclass(frozen=True)
class ModeSpec:
    """One screen of the debugger."""

    name: str
    """Mode name: ``switch_mode(name)``, palette ``mode: name``, binding id ``mode.name``."""
    key: str
    """The key that shows it (a digit)."""
    title: str
    """Its label in the tab bar and in F1."""
    short: str
    """Its label when the tab bar is narrow (80 columns)."""
    about: str
    """What it is for, in one line (palette help and the docs table)."""
    screen: str
    """``module:Class`` under ``sia_tui.tui.screens``, imported on first use."""

    def load(self) -> Screen[Any]:
        """A new instance of the screen (imports its module the first time)."""
        module, _, cls = self.screen.partition(":")
        screen: Screen[Any] = getattr(importlib.import_module(f"{_SCREENS}.{module}"), cls)()
        screen.mode_name = self.name  # type: ignore[attr-defined]  # RunScreen's tab bar
        return screen


#: Every screen, in tab order. To add one: a row here (see CONTRIBUTING.md, "add a screen").
MODE_SPECS: tuple[ModeSpec, ...] = (
    ModeSpec(
        "overview",
        "1",
        "Overview",
        "Card",
        "the Agent Card and skill picker",
        "overview:OverviewScreen",
    ),
    ModeSpec(
        "steps", "2", "Steps", "Steps", "the eleven steps and their evidence", "steps:StepsScreen"
    ),
    ModeSpec(
        "digests", "3", "Digests", "Digest", "the three-way digest inspector", "digests:DigestsScreen"
    ),
    ModeSpec(
        "document",
        "4",
        "Document",
        "Doc",
        "the Skill Interface Document browser",
        "document:DocumentScreen",
    ),
    ModeSpec(
        "invoke",
        "5",
        "Invoke",
        "Invoke",
        "the argument editor, validated as you type",
        "invoke:InvokeScreen",
    ),
    ModeSpec(
        "results",
        "6",
        "Results",
        "Result",
        "the result and supporting records, each with its verdict",
        "results:ResultsScreen",
    ),
    ModeSpec(
        "history",
        "7",
        "History",
        "Hist",
        "the autosaved runs (open one read-only, delete)",
        "history:HistoryMode",
    ),
    ModeSpec(
        "compose",
        "8",
        "Compose",
        "Comp",
        "the composition check and interface diff",
        "compose_mode:ComposeMode",
    ),
    ModeSpec(
        "console",
        "0",
        "Console",
        "A2A",
        "the plain A2A console: any skill, text or data",
        "console:ConsoleScreen",
    ),
)
MODES_BY_NAME = {spec.name: spec for spec in MODE_SPECS}


def mode_factories() -> dict[str, str | Callable[[], Screen[Any]]]:
    """``App.MODES``: each mode builds its screen when first shown."""
    return {spec.name: spec.load for spec in MODE_SPECS}


def mode_bindings() -> list[Binding]:
    """The number keys; hidden from the footer (the tab bar shows them once)."""
    return [
        Binding(
            spec.key,
            f"switch_mode('{spec.name}')",
            spec.title,
            show=False,
            id=f"mode.{spec.name}",
        )
        for spec in MODE_SPECS
    ]


def mode_key(name: str) -> str:
    """The key that shows mode ``name``."""
    return MODES_BY_NAME[name].key


def mode_keys() -> str:
    """The mode keys as a person reads them: ``1-8, 0``."""
    keys = [spec.key for spec in MODE_SPECS]
    runs: list[list[str]] = []
    for key in keys:
        if runs and key.isdigit() and runs[-1][-1].isdigit() and int(key) == int(runs[-1][-1]) + 1:
            runs[-1].append(key)
        else:
            runs.append([key])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


#: The markers around the generated table in docs/TUI.md.
DOCS_BEGIN = "<!-- mode-table begin (generated from sia_tui/tui/modes.py) -->"
DOCS_END = "<!-- mode-table end -->"


def docs_table() -> str:
    """The key table of docs/TUI.md, between its markers."""
    rows = ["| key | screen | palette | what it is for |", "|---|---|---|---|"]
    rows += [
        f"| `{spec.key}` | {spec.title} | `mode: {spec.name}` | {spec.about} |"
        for spec in MODE_SPECS
    ]
    return "\n".join([DOCS_BEGIN, *rows, DOCS_END])


def regenerate_docs(text: str) -> str:
    """``text`` (docs/TUI.md) with the table between the markers made current."""
    start, end = text.index(DOCS_BEGIN), text.index(DOCS_END) + len(DOCS_END)
    return text[:start] + docs_table() + text[end:]
