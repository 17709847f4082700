"""Text a person reads at a glance: tab labels, the blame line, colours that stay legible."""

from __future__ import annotations

from typing import Any

from sia_tui.tui.modes import MODE_SPECS
from sia_tui.tui.widgets.mode_tabs import ModeTabs
from tests.support.tui import SIZE, SMALL, press, static_text


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


async def test_the_blame_line_reads_as_in_the_reports(make_app: Any) -> None:
    """Step 4 of the digest-card fault reads "At fault: agent: the card's ...", with the
    colon the reports write (the bug report and JUnit say "at fault: agent: ..."), not
    "agent the card's"."""
    app = make_app("digest-card")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r")
        run = app.current_run
        assert run is not None and run.at_fault is not None
        line = f"At fault: agent: {run.at_fault.statement}"
        assert line in static_text(app, "#evidence-body").replace("\n", " ")
