"""The Pilot harness draws what somebody reads (tests/support/frames.py): no partial frame
in an unmarked test, every frame in a test marked ``frames``, and always the last frame of
every app a test runs, so a widget that cannot be drawn still fails its test."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widgets import Static

from tests.support.frames import TextualChanged, known_render_update


class Drawn(Static):
    """Counts the times the compositor draws it; ``broken`` makes its render raise."""

    draws = 0
    broken = False

    def render_lines(self, crop: Any) -> list[Strip]:
        Drawn.draws += 1
        if self.broken:
            raise ValueError("this widget cannot be drawn")
        return super().render_lines(crop)


class OneWidget(App[None]):
    def compose(self) -> ComposeResult:
        yield Drawn("first")


@pytest.fixture(autouse=True)
def no_draws_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Drawn, "draws", 0)


async def _update_three_times(app: OneWidget) -> list[int]:
    """The draw count after the start and after each of three updates the app shows."""
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        counts = [Drawn.draws]
        for text in ("second", "third", "fourth"):
            app.query_one(Drawn).update(text)
            await pilot.pause()
            counts.append(Drawn.draws)
    return counts


async def test_an_unmarked_test_draws_no_partial_frame_and_the_last_frame_once() -> None:
    app = OneWidget()
    counts = await _update_three_times(app)
    assert counts == [0, 0, 0, 0], "frames nobody reads were drawn"
    assert Drawn.draws == 1, "the app's last frame was not drawn when run_test ended"


@pytest.mark.frames
async def test_a_test_marked_frames_draws_every_frame() -> None:
    counts = await _update_three_times(OneWidget())
    assert all(later > earlier for earlier, later in zip(counts, counts[1:], strict=False))
    assert counts[0] > 0


async def test_a_widget_that_cannot_be_drawn_at_the_end_fails_the_test() -> None:
    """No partial frame draws the broken widget (the test skips them); the last frame does,
    and the test sees the widget's error."""
    app = OneWidget()
    with pytest.raises(ValueError, match="cannot be drawn"):
        async with app.run_test(size=(40, 5)) as pilot:
            widget = app.query_one(Drawn)
            widget.broken = True
            widget.refresh()
            await pilot.pause()
            assert app.is_running  # nothing drew it yet
    assert Drawn.draws == 1


def test_the_harness_refuses_a_textual_it_does_not_know() -> None:
    """A changed ``Compositor.render_update`` stops the harness with a message, rather than
    skipping frames some other way."""

    def render_update(self: Any, full: bool = False, screen_stack: Any = None) -> Any:
        return None

    def draws_from_elsewhere(
        self: Any, full: bool = False, screen_stack: Any = None, simplify: bool = False
    ) -> Any:
        return self.render_everything()

    for changed in (render_update, draws_from_elsewhere, None):
        with pytest.raises(TextualChanged, match="update the harness"):
            known_render_update(changed)
