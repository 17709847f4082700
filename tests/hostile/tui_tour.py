"""Touring the TUI as a person would, against hostile text: every screen, every list clicked,
and everything written to the terminal kept for inspection.

``RecordingDriver`` is Textual's headless driver that says it is not headless, so the app
renders every frame to terminal bytes as it would on a real terminal, and keeps them.
``Sentinel`` records the app actions an agent's markup would run. ``terminal_escapes``
lists what in those bytes Textual did not write itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import textual.drivers.headless_driver as headless
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Input, OptionList, Select, TextArea, Tree

from tests.support.tui import settle


class RecordingDriver(headless.HeadlessDriver):
    """Renders like a terminal (the app checks ``is_headless`` before it draws) and keeps
    every write."""

    written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RecordingDriver.written.append(data)


@contextmanager
def recording_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """While inside, ``run_test`` apps write to the list yielded (Textual imports the
    headless driver by name when a test runs an app)."""
    written: list[str] = []
    monkeypatch.setattr(RecordingDriver, "written", written)
    monkeypatch.setattr(headless, "HeadlessDriver", RecordingDriver)
    yield written


#: Sequences Textual writes itself: CSI cursor moves, colours and modes, and OSC 22 (the
#: pointer shape). An agent's ``ESC [ 2 J`` or ``ESC ] 0`` is none of these.
_OWN = re.compile(r"\x1b\[[0-9;?<>=]*[mHhlu]|\x1b\]22;[a-z-]*\x07")
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


def terminal_escapes(output: str) -> list[str]:
    """Every control or format character (as U+XXXX, with what follows it) in ``output``
    that is not part of a sequence Textual writes itself."""
    rest = _OWN.sub("", output)
    found = {
        f"U+{ord(c):04X} {rest[i + 1 : i + 8]!r}"
        for i, c in enumerate(rest)
        if c != "\n" and unicodedata.category(c) in _REFUSED
    }
    return sorted(found)


class Sentinel:
    """Records every call of the app actions hostile markup names, instead of running them."""

    WATCHED = ("action_quit", "action_screenshot", "action_notify", "save_screenshot", "exit")

    def __init__(self, app: App[Any], monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        for name in self.WATCHED:
            monkeypatch.setattr(app, name, self._recorder(name))

    def _recorder(self, name: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> None:
            self.calls.append(f"{name}{args}")

        return record


def _without_focus(app: App[Any]) -> None:
    """Leave an editor or a field (a person presses Esc) so the number keys switch screens."""
    if isinstance(app.focused, TextArea | Input):
        app.screen.set_focus(None)


async def visit(pilot: Pilot[Any], key: str) -> None:
    """Press a screen's key and wait for everything it started."""
    _without_focus(pilot.app)
    await pilot.press(key)
    await settle(pilot)


#: Rows clicked per list (options of a Select), and where in each row: on the text, where
#: an agent's ``@click`` markup would be.
_ROWS = 6
_OPTIONS = 3
_COLUMNS = (3, 14)


def _lists(app: App[Any]) -> list[Widget]:
    return [
        widget
        for widget in app.screen.query("OptionList, Tree, DataTable, Select").results()
        if widget.display and widget.region.area and not _inside_select(widget)
    ]


def _inside_select(widget: Widget) -> bool:
    return any(isinstance(node, Select) for node in widget.ancestors)


async def click_every_list(pilot: Pilot[Any], key: str) -> int:
    """Click the first rows of every list on the screen ``key`` shows (a Select's options
    after opening it); back on that screen whenever a click leaves it. Returns the clicks."""
    app = pilot.app
    clicks = 0
    for widget in _lists(app):
        if isinstance(widget, Select):
            clicks += await _click_options_of(pilot, widget)
            continue
        if not isinstance(widget, OptionList | Tree | DataTable):
            continue
        for row in range(min(_ROWS, widget.region.height, _rows(widget))):
            for column in _COLUMNS:
                if not widget.is_attached or app.screen is not widget.screen:
                    await visit(pilot, key)  # a selection opened another screen
                    break
                await pilot.click(widget, offset=(column, row))
                clicks += 1
        await settle(pilot)
    return clicks


def _rows(widget: OptionList | Tree[Any] | DataTable[Any]) -> int:
    """Rows with something in them (a border and a header row included)."""
    if isinstance(widget, OptionList):
        return 1 + sum(len(str(o.prompt).splitlines()) or 1 for o in widget.options)
    if isinstance(widget, Tree):
        return 2 + widget.last_line
    return 2 + widget.row_count


async def _click_options_of(pilot: Pilot[Any], select: Select[Any]) -> int:
    clicks = 0
    for row in range(_OPTIONS):
        if not select.is_attached:
            break
        await pilot.click(select)
        await pilot.pause()
        overlay = select.query_one("SelectOverlay", OptionList)
        if row >= overlay.option_count:
            await pilot.press("escape")
            break
        await pilot.click(overlay, offset=(_COLUMNS[0], row))
        clicks += 2
        await pilot.pause()
    return clicks
