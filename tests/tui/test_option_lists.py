"""Every option list shows every line of every option, measured at the width it is drawn:
when its scroll bar comes or goes, on the first frame that shows it, and on the Results
screen's record links as a person sees them."""

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

from sia_tui.core.run.read_model import Target
from sia_tui.tui.screens.overview import SkillList
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.literal import LiteralOptionList, option
from tests.support.frames import draw_full_frame
from tests.support.scripted_agent import BASE, FIVE_REFS, citing_five_records
from tests.support.tui import (
    SMALL,
    invoke_appendix_b,
    settle,
    snapshot_app,
)

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


def _screen(app: App[Any], *, strip: bool = True) -> list[str]:
    """The lines of the screen as a person reads them (``strip``: without the blanks)."""
    lines = Text.from_ansi(draw_full_frame(app)).plain.splitlines()
    return [line.strip() for line in lines] if strip else lines


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


@pytest.mark.parametrize("size", [SMALL, (140, 40)])
async def test_the_results_links_show_each_reference_whole(
    user_dirs: UserDirs, size: tuple[int, int]
) -> None:
    """Results, with an answer citing five records: the supporting_record_refs list shows
    the first reference to its end. Measured without its bar and drawn beside it, the
    reference lost its last line ('le' of 'sample'): the next one's arrow came first."""
    app = snapshot_app(Target(BASE), engine_factory=citing_five_records().engine, dirs=user_dirs)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        links = app.screen.query_one("#links", LiteralOptionList)
        assert links.show_vertical_scrollbar
        area = links.scrollable_content_region
        rows = _screen(app, strip=False)[area.y : area.bottom]
        shown = "".join(row[area.x : area.right].strip() for row in rows)
        assert shown.startswith(f"→{FIVE_REFS[0]}")  # then the next one's arrow, if there is room
