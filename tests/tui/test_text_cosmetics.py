"""Text a person reads at a glance: tab labels, the blame line, colours that stay legible."""

from __future__ import annotations

from typing import Any

from sia_tui.tui.modes import MODE_SPECS
from sia_tui.tui.widgets.mode_tabs import ModeTabs
from tests.support.tui import SMALL, press


async def test_at_80_columns_every_tab_has_its_label_from_the_first_screen(
    make_app: Any,
) -> None:
    """At 80x24 the tab bar reads `1 Card 2 Steps 3 Digest ... 0 A2A` on every screen,
    the Overview included (it used to show `1 Overview 2 3 4 ...`, bare digits)."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        for spec in MODE_SPECS:
            await press(pilot, spec.key)
            shown = str(app.screen.query_one(ModeTabs).render())
            assert len(shown) <= SMALL[0], spec.name
            missing = [
                s.key
                for s in MODE_SPECS
                if f"{s.key} {s.short}" not in shown and f"{s.key} {s.title}" not in shown
            ]
            assert missing == [], (spec.name, shown)
