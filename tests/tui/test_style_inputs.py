"""A tab's first visit restyles nothing that did not change; a theme change restyles all."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from sia_tui.tui.modes import MODE_SPECS
from sia_tui.tui.storage import UserDirs
from tests.support.tui import SIZE, gated_app, settle


async def test_a_tabs_first_visit_reads_the_css_once_and_a_later_theme_restyles_every_tab(
    user_dirs: UserDirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual restyled the whole app twice on each tab's first visit (every rule parsed
    again, every widget styled again) although at most the new screen's widgets brought
    rules of their own: the second restyle, with nothing changed, is skipped.

    After those first visits, a new theme still reaches every screen: each one's background
    is the new theme's. Both themes in one app, one after the other: the second is as much
    "chosen later" as the first. One app for all: the first walk over the tabs is the first
    visits, and each walk is what costs (an app per check walked the tabs again)."""
    app, _ = gated_app(user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reparsed: list[str] = []
        reparse = Stylesheet.reparse

        def counting(stylesheet: Stylesheet) -> None:
            reparsed.append(app.current_mode)
            reparse(stylesheet)

        monkeypatch.setattr(Stylesheet, "reparse", counting)
        visited = [spec.name for spec in MODE_SPECS if spec.name != app.current_mode]
        for name in visited:
            await app.switch_mode(name)
            await settle(pilot)
        assert all(reparsed.count(name) <= 1 for name in visited), reparsed
        monkeypatch.undo()

        for theme in ("sia-light", "sia-high-contrast"):
            app.theme = theme
            await settle(pilot)
            wanted: Any = app.current_theme.background
            for spec in MODE_SPECS:
                await app.switch_mode(spec.name)
                await settle(pilot)
                background = app.screen.styles.background.hex.lower()
                assert background == str(wanted).lower(), (theme, spec.name)
