"""Setting a ``LiteralStatic`` to what it already shows draws nothing again; any change of
its text or of a style over it is drawn."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.content import Content, Span

from sia_tui.tui.widgets.literal import LiteralStatic


class OneStatic(App[None]):
    def compose(self) -> ComposeResult:
        yield LiteralStatic(Content("step 4 failed", [Span(7, 13, "bold")]), id="static")


async def test_the_same_text_set_again_is_not_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Screens set their text on every run update; two in three changed nothing and each
    laid the widget out and drew it again."""
    app = OneStatic()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        static = app.query_one(LiteralStatic)
        refreshed: list[bool] = []
        refresh = static.refresh

        def counting(*args: object, **kwargs: object) -> object:
            refreshed.append(True)
            return refresh(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(static, "refresh", counting)
        static.update(Content("step 4 failed", [Span(7, 13, "bold")]))
        assert refreshed == []
        static.update(Content("step 4 failed", [Span(7, 13, "italic")]))
        assert refreshed, "a new style over the same text was not drawn"
        refreshed.clear()
        static.update("step 4 passed")
        assert refreshed, "a new text was not drawn"
        await pilot.pause()
        assert "step 4 passed" in str(static.render())
