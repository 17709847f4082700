"""The screens ("modes") as data: one ``ModeSpec`` row per screen generates the app's modes,
their number keys, the header tab bar, the palette's ``mode: …`` commands, the palette
commands of the screen's own actions, and the key table in docs/TUI.md (checked by a test).
Adding a screen is adding a row here.

Screens are imported on first use, so starting the app loads only the screen it opens on;
that is why a screen's palette commands are listed on its row, not on its class.
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
class ScreenCommand:
    """A palette command that runs one of its screen's actions, from any screen."""

    title: str
    """The palette entry, with its category prefix (``arguments: use the example``)."""
    help: str
    """What it does, in one line."""
    action: str
    """The screen's ``action_<name>`` it runs."""
    requires: str = ""
    """What the user must choose on the screen first ("select a row"); the palette then says
    so from other screens. "" lets the palette switch to the screen and run the action."""
    arguments: tuple[str, ...] = ()
    """What the action is called with (``response_mode('stream')``: ``("stream",)``)."""


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
    commands: tuple[ScreenCommand, ...] = ()
    """The palette commands of the screen's own actions."""

    def screen_class(self) -> type[Screen[Any]]:
        """The screen's class (imports its module the first time)."""
        module, _, cls = self.screen.partition(":")
        screen_class: type[Screen[Any]] = getattr(
            importlib.import_module(f"{_SCREENS}.{module}"), cls
        )
        return screen_class

    def load(self) -> Screen[Any]:
        """A new instance of the screen."""
        screen = self.screen_class()()
        screen.mode_name = self.name  # type: ignore[attr-defined]  # RunScreen's tab bar
        return screen


#: Every screen, in tab order. To add one: a row here (see CONTRIBUTING.md, "add a screen").
MODE_SPECS: tuple[ModeSpec, ...] = (
    ModeSpec(
        name="overview",
        key="1",
        title="Overview",
        short="Card",
        about="the Agent Card and skill picker",
        screen="overview:OverviewScreen",
    ),
    ModeSpec(
        name="steps",
        key="2",
        title="Steps",
        short="Steps",
        about="the eleven steps and their evidence",
        screen="steps:StepsScreen",
    ),
    ModeSpec(
        name="digests",
        key="3",
        title="Digests",
        short="Digest",
        about="the three-way digest inspector",
        screen="digests:DigestsScreen",
        commands=(
            ScreenCommand(
                "digest: copy canonical text",
                "Copy the canonical JCS text of the selected value (Digests screen)",
                "copy_canonical",
                requires="select a row",
            ),
        ),
    ),
    ModeSpec(
        name="document",
        key="4",
        title="Document",
        short="Doc",
        about="the Skill Interface Document browser",
        screen="document:DocumentScreen",
    ),
    ModeSpec(
        name="invoke",
        key="5",
        title="Invoke",
        short="Invoke",
        about="the argument editor, validated as you type",
        screen="invoke:InvokeScreen",
        commands=(
            ScreenCommand(
                "arguments: reset to skeleton",
                "Replace the argument text by the input schema's skeleton (f3)",
                "reset",
            ),
            ScreenCommand(
                "arguments: use the example",
                "Replace the argument text by the schema's or the card skill's example (f4)",
                "use_example",
            ),
            ScreenCommand(
                "push: toggle the loopback receiver",
                "Register a webhook on 127.0.0.1 with the next invocation (Invoke screen)",
                "toggle_push",
            ),
            *(
                ScreenCommand(
                    f"response mode: {mode}",
                    f"The next invocation uses the {mode} response mode (f8 opens the picker)",
                    "response_mode",
                    arguments=(mode,),
                )
                # The draft's three response modes (RULES SID4); the screen says when the
                # document does not declare the one chosen.
                for mode in ("sync", "stream", "poll")
            ),
        ),
    ),
    ModeSpec(
        name="results",
        key="6",
        title="Results",
        short="Result",
        about="the result and supporting records, each with its verdict",
        screen="results:ResultsScreen",
    ),
    ModeSpec(
        name="history",
        key="7",
        title="History",
        short="Hist",
        about="the autosaved runs (open one read-only, delete)",
        screen="history:HistoryMode",
    ),
    ModeSpec(
        name="compose",
        key="8",
        title="Compose",
        short="Comp",
        about="the composition check and interface diff",
        screen="compose_mode:ComposeMode",
    ),
    ModeSpec(
        name="probe",
        key="9",
        title="Probe",
        short="Probe",
        about="deliberately wrong requests, each graded against its rule",
        screen="probe:ProbeScreen",
    ),
    ModeSpec(
        name="console",
        key="0",
        title="Console",
        short="A2A",
        about="the plain A2A console: any skill, text or data",
        screen="console:ConsoleScreen",
    ),
)
MODES_BY_NAME = {spec.name: spec for spec in MODE_SPECS}


def mode_factories(
    specs: tuple[ModeSpec, ...] = MODE_SPECS,
) -> dict[str, str | Callable[[], Screen[Any]]]:
    """``App.MODES``: each mode builds its screen when first shown."""
    return {spec.name: spec.load for spec in specs}


def mode_bindings(specs: tuple[ModeSpec, ...] = MODE_SPECS) -> list[Binding]:
    """The mode keys; hidden from the footer (the tab bar shows them once)."""
    return [
        Binding(
            spec.key,
            f"switch_mode('{spec.name}')",
            spec.title,
            show=False,
            id=f"mode.{spec.name}",
        )
        for spec in specs
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
