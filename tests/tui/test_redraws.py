"""A screen is drawn again only when a change was announced since it last drew itself; the
skill list shows every line of its options after any redraw; the Steps screen draws a step's
evidence once per redraw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sia_tui.tui.app import SiaApp
from sia_tui.tui.messages import RunUpdated
from sia_tui.tui.screens import steps as steps_screen
from sia_tui.tui.screens.overview import OverviewScreen
from tests.support.frames import draw_full_frame
from tests.support.tui import SMALL, settle


def _count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[object]:
    calls: list[object] = []
    real = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


async def test_a_redraw_nobody_asked_for_since_the_screen_drew_is_skipped(
    make_app: Callable[..., SiaApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At start-up step 1 usually ends before the first screen is shown, which draws the card;
    the redraw step 1 had asked for drew it all again. A change announced after the screen
    drew is drawn."""
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        drawn = _count_calls(monkeypatch, OverviewScreen, "show_run")
        app.post_message(RunUpdated())  # a redraw requested before the screen drew itself
        await settle(pilot)
        assert drawn == []
        app.request_redraw()  # a change announced since
        await settle(pilot)
        assert len(drawn) == 1


async def test_the_skill_list_shows_every_line_of_the_highlighted_skill_after_a_redraw(
    make_app: Callable[..., SiaApp],
) -> None:
    """At 80x24 the skill list needs a scroll bar. Filled while it had none (as a redraw
    after the first frame fills it), Textual measured the options at the width without the
    bar and drew them beside it: the highlighted skill lost its last line, its tags."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.request_redraw()  # a redraw with the list laid out and its bar shown
        await settle(pilot)
        assert "tags: network, observe" in draw_full_frame(app)


async def test_the_steps_screen_draws_a_steps_evidence_once_per_redraw(
    make_app: Callable[..., SiaApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The step list is rebuilt on each redraw, which moved its highlight off and back to the
    same row: the evidence beside it, drawn by the redraw, was drawn a second time."""
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        drawn = _count_calls(monkeypatch, steps_screen, "step_content")
        app.request_redraw()
        await settle(pilot)
        assert len(drawn) == 1
        await pilot.press("down")  # the user's own move is drawn
        await settle(pilot)
        assert len(drawn) == 2
