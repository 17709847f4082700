"""A headless app in a test marked ``frames`` draws each frame's widgets without cutting them
into the update nobody receives (tests/support/frames.py): the widgets draw exactly what a
terminal's frame draws, so a stale render still shows in a snapshot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import OptionList, Static

from sia_tui.core.run.read_model import Target
from tests.support.frames import _render_update, compositor_class, frame_crop, skip_unread_frames
from tests.support.tui import SIZE, settle, snapshot_app

pytestmark = pytest.mark.frames

Draw = tuple[str, Region]


class Stale(Widget):
    """Shows ``text``; changing it without a refresh is the planted bug (a stale render)."""

    text = "drawn first"

    def render(self) -> str:
        return self.text


class Several(App[None]):
    CSS = "#options { height: 6; } Static, Stale { height: 1; }"

    def compose(self) -> ComposeResult:
        yield Static("a static line", id="static")
        yield OptionList(*(f"option {n}" for n in range(30)), id="options")
        yield Stale(id="stale")


def _recording_draws(monkeypatch: pytest.MonkeyPatch) -> list[Draw]:
    """Every ``render_lines`` call a frame makes: which widget, which region of it."""
    draws: list[Draw] = []
    render_lines = Widget.render_lines

    def recorded(self: Widget, crop: Region) -> list[Strip]:
        draws.append((self.id or type(self).__name__, crop))
        return render_lines(self, crop)

    monkeypatch.setattr(Widget, "render_lines", recorded)
    return draws


def _every_frame_composed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's own ``render_update``: each frame drawn and cut into the terminal update."""
    monkeypatch.setattr(compositor_class(), "render_update", _render_update())


async def _journey(app: Several) -> str:
    """Scroll and highlight options, update the static, plant the stale change: the
    screenshot (SVG) at the end."""
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        app.query_one("#options", OptionList).focus()
        for key in ("down", "down", "pagedown", "end", "home", "down"):
            await pilot.press(key)
            await pilot.pause()
        app.query_one("#static", Static).update("another line")
        await pilot.pause()
        app.query_one(Stale).text = "changed unseen"  # no refresh: the planted bug
        app.query_one("#static", Static).update("a third line")  # another widget's frame
        await pilot.pause()
        return app.export_screenshot()


async def test_uncut_frames_draw_what_composed_frames_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same journey with uncut and with composed frames: the same widgets drew (each
    region as often: when a frame falls is the event loop's timing), and the screenshots,
    the planted stale render included, are byte-equal."""
    draws = _recording_draws(monkeypatch)
    uncut = await _journey(Several())
    uncut_draws = set(draws)
    draws.clear()
    _every_frame_composed(monkeypatch)
    composed = await _journey(Several())
    assert uncut_draws == set(draws) and len(draws) > 20
    assert uncut == composed


async def test_a_stale_render_shows_in_the_picture_as_on_a_terminal() -> None:
    """The stale widget keeps its first lines in the screenshot, as a terminal would show it
    (with frames skipped it would be drawn fresh at the end and the bug hidden)."""
    picture = await _journey(Several())
    assert "drawn" in picture and "changed" not in picture


async def test_with_frames_skipped_the_stale_render_is_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Why the snapshots draw every frame: skipping them draws the planted bug away."""
    skip_unread_frames(monkeypatch)
    picture = await _journey(Several())
    assert "changed" in picture and "drawn" not in picture


class _Spy:
    """Around Textual's own frames: the region each one drew, and whether it drew every
    widget ``_get_renders`` offered (what the uncut frame draws)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames: list[tuple[Any, list[Any], bool]] = []
        #: Per compositor drawing a frame: the regions it drew, all drawn to the end.
        self.drawing: dict[int, tuple[list[Any], list[bool]]] = {}
        render_update = _render_update()
        Compositor = compositor_class()
        get_renders = Compositor._get_renders
        spy = self

        def frame(self: Any, full: bool = False, **kwargs: Any) -> Any:
            crops: list[Any] = []
            ends: list[bool] = []
            spy.drawing[id(self)] = (crops, ends)
            expected = None if full else frame_crop(self)
            try:
                return render_update(self, full, **kwargs)
            finally:
                del spy.drawing[id(self)]
                if not full:
                    spy.frames.append((expected, crops, all(ends)))

        def renders(self: Any, crop: Region | None = None) -> Iterator[Any]:
            # Another compositor's draws (a screen under a dialog) are part of a widget's.
            crops, ends = spy.drawing.get(id(self), ([], []))
            crops.append(crop)
            ends.append(False)
            yield from get_renders(self, crop)
            ends[-1] = True

        monkeypatch.setattr(Compositor, "render_update", frame)
        monkeypatch.setattr(Compositor, "_get_renders", renders)


async def test_a_real_journeys_frames_draw_the_region_the_uncut_frame_draws(
    reference_agent: Any, user_dirs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Steps 1-6 and the results on the reference agent, every frame composed by Textual:
    each frame drew every widget in exactly the region the uncut frame computes (``None``:
    nothing dirty, nothing drawn)."""
    spy = _Spy(monkeypatch)
    app = snapshot_app(Target(reference_agent().url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in ("2", "r", "3", "4", "down", "1"):
            await pilot.press(key)
            await settle(pilot)
    assert len(spy.frames) > 20
    for expected, crops, exhausted in spy.frames:
        assert crops == ([] if expected is None else [expected]) and exhausted
