"""Every option list shows every line of every option, measured at the width it is drawn:
when its scroll bar comes or goes, and on the first frame that shows it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip

from sia_tui.tui.screens.overview import SkillList
from sia_tui.tui.widgets.literal import LiteralOptionList, option
from tests.support.frames import draw_full_frame

pytestmark = pytest.mark.frames  # every frame drawn, as a terminal would

#: Four options of three words: two lines each beside no scroll bar (20 columns), three
#: beside one (18); four make 8 lines, more than the list's 6, so the bar comes.
PROMPTS = [f"skill-{i}xx two-words tags-{i}xxxxxxxxx" for i in range(4)]


class _OneList(App[None]):
    """A list 22 columns wide (20 for its options) and 6 lines high, filled on demand."""

    CSS = "LiteralOptionList { width: 22; height: 6; border: none; }"

    def compose(self) -> ComposeResult:
        yield LiteralOptionList()


@asynccontextmanager
async def _filled_once_laid_out() -> AsyncIterator[tuple[Pilot[None], LiteralOptionList]]:
    """The list laid out with no option (no bar), then given ``PROMPTS``."""
    app = _OneList()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        listing = app.query_one(LiteralOptionList)
        listing.add_options(option(Content(prompt)) for prompt in PROMPTS)
        await pilot.pause()
        yield pilot, listing


def _screen(app: App[Any]) -> list[str]:
    """The lines of the screen as a person reads them."""
    return [line.strip() for line in Text.from_ansi(draw_full_frame(app)).plain.splitlines()]


async def test_an_option_keeps_its_last_line_when_the_scroll_bar_comes() -> None:
    """Filled while it showed no bar, the list measured each option at 20 columns (two
    lines), then drew it at 18 beside the bar it added (three lines): the third, the tags,
    was cut off every option."""
    async with _filled_once_laid_out() as (pilot, listing):
        app = pilot.app
        assert listing.show_vertical_scrollbar
        assert _screen(app)[:6] == [
            "skill-0xx",
            "two-words",
            "tags-0xxxxxxxxx",
            "skill-1xx",
            "two-words",
            "tags-1xxxxxxxxx",
        ]
        listing.focus()
        await pilot.press("end")  # the last option, scrolled into view: all of it
        assert _screen(app)[3:6] == ["skill-3xx", "two-words", "tags-3xxxxxxxxx"]


async def test_an_option_leaves_no_blank_line_when_the_scroll_bar_goes() -> None:
    """The other way: measured beside the bar (three lines), an option kept a blank line
    under it once the bar went and it took two."""
    async with _filled_once_laid_out() as (pilot, listing):
        app = pilot.app
        listing.remove_option_at_index(3)
        listing.remove_option_at_index(2)
        await pilot.pause()
        assert not listing.show_vertical_scrollbar
        assert _screen(app)[:5] == [
            "skill-0xx two-words",
            "tags-0xxxxxxxxx",
            "skill-1xx two-words",
            "tags-1xxxxxxxxx",
            "",
        ]


class _FilledBeforeLaidOut(App[None]):
    """The Overview's start-up: the skill list filled before its first layout (step 1 ended
    before the first screen was drawn), its last option highlighted."""

    CSS = "SkillList { width: 22; height: 6; border: none; }"

    def compose(self) -> ComposeResult:
        yield SkillList()

    def on_mount(self) -> None:
        self.query_one(SkillList).fill([option(Content(prompt)) for prompt in PROMPTS], 3)


def _whole(lines: list[str]) -> bool:
    """Each option drawn in ``lines`` has its three lines (one cut by the list's edge
    aside)."""
    return all(
        lines[at + 2 : at + 3] in ([], [f"tags-{line[6]}xxxxxxxxx"])
        for at, line in enumerate(lines)
        if line.startswith("skill-")
    )


async def test_every_frame_of_a_list_filled_before_layout_shows_whole_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The list measures its options when first drawn, and finds it needs a scroll bar only
    then: the first frames drew the options cut (measured without the bar, drawn beside
    it), and a frame after a refresh drew them again whole. Now every frame that shows the
    list shows them whole, and the highlighted option ends up in view."""
    drawn: list[list[str]] = []
    render_lines = SkillList.render_lines

    def recorded(self: SkillList, crop: Region) -> list[Strip]:
        lines = render_lines(self, crop)
        drawn.append([strip.text.strip() for strip in lines])
        return lines

    monkeypatch.setattr(SkillList, "render_lines", recorded)
    app = _FilledBeforeLaidOut()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        await pilot.pause()
    shown = [lines for lines in drawn if any(lines)]
    assert shown and all(_whole(lines) for lines in shown), shown
    assert shown[-1][-3:] == ["skill-3xx", "two-words", "tags-3xxxxxxxxx"]
