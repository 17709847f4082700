"""Text a person reads at a glance: tab labels, the blame line, colours that stay legible."""

from __future__ import annotations

from typing import Any

import pytest
from textual.color import Color
from textual.widgets import DataTable

from sia_tui.tui.app import SiaApp
from sia_tui.tui.modes import MODE_SPECS
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.mode_tabs import ModeTabs
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    SMALL,
    enter_arguments,
    press,
    static_text,
    wait_until,
)


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
        assert run is not None and run.verdict.at_fault is not None
        line = f"At fault: agent: {run.verdict.at_fault.statement}"
        assert line in static_text(app, "#evidence-body").replace("\n", " ")


def _luminance(colour: Color) -> float:
    """WCAG 2.x relative luminance."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.r) + 0.7152 * linear(colour.g) + 0.0722 * linear(colour.b)


def contrast_ratio(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two opaque colours (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: Colours drawn on a highlighted row: a step's mark, a skill's badge, the ● of the current
#: skill, a verdict, and the row's own text.
_ON_HIGHLIGHT = (
    "step-passed",
    "step-failed",
    "step-skipped",
    "step-running",
    "success",
    "error",
    "accent",
    "warning",
    "secondary",
    "block-cursor-foreground",
    "block-cursor-blurred-foreground",
)


@pytest.mark.parametrize("theme", ["sia-light", "sia-dark", "sia-high-contrast"])
async def test_text_on_the_highlighted_row_is_legible(user_dirs: UserDirs, theme: str) -> None:
    """In every built-in theme, green ✔ (and every status colour, and a skill's id) on the
    highlighted row of the step and skill lists reads at a WCAG contrast of at least 4.5:1,
    focused or not (sia-light drew green on a solid blue row at 1.06:1, sia-dark red at
    1.16:1, sia-high-contrast amber on yellow at 1.00:1)."""
    app = SiaApp(dirs=user_dirs)
    async with app.run_test(size=SMALL):
        app.theme = theme
        variables = app.get_css_variables()
        background = Color.parse(variables["background"])
        low = {}
        for row in ("block-cursor-background", "block-cursor-blurred-background"):
            behind = background + Color.parse(variables[row])  # a translucent row blends in
            for name in _ON_HIGHLIGHT:
                if ("blurred" in name) != ("blurred" in row) and "cursor" in name:
                    continue  # each row's own text colour
                if variables[name].startswith("auto"):
                    continue  # Textual picks black or white, whichever contrasts more
                ratio = contrast_ratio(background + Color.parse(variables[name]), behind)
                if ratio < 4.5:
                    low[f"{name} on {row}"] = round(ratio, 2)
        assert low == {}


async def test_problems_wrap_and_toasts_leave_them_visible(make_app: Any) -> None:
    """At 80x24 with invalid arguments, the Problems table shows the whole message (wrapped
    inside the table, not cut at the edge), and a notification appears at the top right,
    clear of the table (at the bottom it covered the message column)."""
    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await press(pilot, "2", "r")
        await enter_arguments(pilot, APPENDIX_B_TEXT.replace("80", '"eighty"'))
        await press(pilot)
        table = app.screen.query_one("#errors", DataTable)
        message = list(table.columns.values())[-1]
        assert str(message.label) == "message"
        right = table.region.x + sum(c.get_render_width(table) for c in table.columns.values())
        assert right <= table.region.right
        assert str(table.get_row_at(0)[-1]) == '"eighty" is not of type "number"'
        assert table.rows[table.coordinate_to_cell_key((0, 0)).row_key].height == 2
        app.notify("A notice about the arguments")
        # By its CSS type name: the Toast class lives in a private Textual module.
        await wait_until(pilot, lambda: bool(app.screen.query("Toast")))
        toasts = list(app.screen.query("Toast"))
        assert not any(t.region.overlaps(table.region) for t in toasts)
