"""At 80x24 (a laptop split at a plugfest) no key and no verdict is cut."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widget import Widget
from textual.widgets import Checkbox, DataTable, Footer

from sia_tui.tui.modes import MODE_SPECS
from sia_tui.tui.screens.connect import ConnectScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.mode_tabs import ModeTabs
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SMALL,
    enter_arguments,
    press,
    settle,
    workers_done,
)


def _fully_visible(app: App[Any], widget: Widget) -> bool:
    """The widget's whole region is on screen (nothing clipped at the right or bottom)."""
    region = widget.region
    width, height = app.size
    return region.width > 0 and region.right <= width and region.bottom <= height


def _cut_keys(app: App[Any]) -> list[str]:
    """Footer keys that do not fit, or overlap their neighbour."""
    # By its CSS type name: the FooterKey class lives in a private Textual module.
    keys = sorted(app.screen.query_one(Footer).query("FooterKey"), key=lambda k: k.region.x)
    assert keys, "the footer shows no key at all"

    def name(key: Widget) -> str:
        return str(getattr(key, "key", key))

    cut = [name(k) for k in keys if not _fully_visible(app, k)]
    cut += [name(b) for a, b in zip(keys, keys[1:], strict=False) if a.region.right > b.region.x]
    return cut


def _cut_options(app: App[Any]) -> list[str]:
    """Checkboxes (the Invoke screen's "Push") whose label does not read whole: cut by the
    screen or by the row that holds them."""
    cut = []
    for box in app.screen.query(Checkbox):
        shown = all(node.display for node in box.ancestors_with_self if isinstance(node, Widget))
        if not shown or box.parent is None:
            continue
        container = box.parent.region if isinstance(box.parent, Widget) else None
        right = min(app.size[0], container.right if container else app.size[0])
        if box.region.right > right or box.region.width < len(str(box.label)) + 2:
            cut.append(str(box.label))
    return cut


def _cut_digests(app: App[Any]) -> list[str]:
    """Digest tables wider than their pane: a digest the user must scroll to read whole."""
    return [
        str(table.id)
        for table in app.screen.query(DataTable)
        if table.id in ("interface", "schemas") and table.display and table.max_scroll_x > 0
    ]


async def test_every_screen_fits_80x24_with_every_key_visible_and_no_toast_covers_a_key(
    make_app: Any,
) -> None:
    """On every screen after an invocation at 80x24: every key, option, digest and verdict
    pane reads whole; and a toast leaves the first column of every table (what each row is:
    "digest of", the run, the probe) readable. (One app: both are checks of the same walk
    over the screens after the same invocation; an app each walked it twice.)"""
    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await press(pilot, "2", "r")
        await enter_arguments(pilot, APPENDIX_B_TEXT)
        await pilot.press("ctrl+j")
        await settle(pilot)
        for spec in MODE_SPECS:
            app.switch_mode(spec.name)
            await settle(pilot)
            screen = app.screen
            for editor in screen.query(ArgumentEditor):  # its own keys join the footer
                editor.focus()
                await settle(pilot)
            assert _cut_keys(app) == [], spec.name
            # As the README says: every screen fits; options read whole, digests too.
            assert _cut_options(app) == [], spec.name
            assert _cut_digests(app) == [], spec.name
            tabs = screen.query_one(ModeTabs)
            shown = str(tabs.render())
            assert len(shown) <= SMALL[0] and all(f"{s.key} " in shown for s in MODE_SPECS)
            if spec.name in ("steps", "digests", "results", "overview"):
                # The pane that holds the verdict is on screen, whole width.
                target = {
                    "steps": "#evidence",
                    "digests": "#interface",
                    "results": "#status",
                    "overview": "#skills",
                }[spec.name]
                assert _fully_visible(app, screen.query_one(target)), spec.name
            # A toast (here the longest the app shows) over this screen.
            app.notify("Sending invocation 3 of 3; [ shows the earlier ones.", title="Invocations")
            await workers_done(app)
            for _ in range(3):
                await pilot.pause()
            (toast,) = screen.query("Toast")
            for table in screen.query(DataTable):
                if not table.display or not table.columns:
                    continue
                key = next(iter(table.columns.values()))
                key_right = table.region.x + key.get_render_width(table)
                assert toast.region.x >= key_right, (spec.name, table.id)


async def test_the_digest_verdict_column_is_on_screen_at_80_columns(make_app: Any) -> None:
    app = make_app("digest-card")
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r", "3")
        table = app.screen.query_one("#interface", DataTable)
        label, verdict = list(table.columns.values())[:2]
        right = table.region.x + label.get_render_width(table) + verdict.get_render_width(table)
        assert right <= table.region.right
        assert str(table.get_row_at(0)[1]) == "✘ ≠ both"


@pytest.mark.parametrize("size", [SMALL, (100, 30)])
async def test_the_connect_dialog_fits_with_its_buttons(
    make_app: Any, size: tuple[int, int]
) -> None:
    app = make_app()
    app.dirs.remember_target("http://one.example")
    app.dirs.remember_target("http://two.example")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "c")
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        for selector in ("#go", "#cancel", "#location", "#recent", "#insecure"):
            assert _fully_visible(app, screen.query_one(selector)), selector


async def test_z_collapses_the_side_pane_to_give_the_rest_the_width(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r")
        evidence = app.screen.query_one("#evidence")
        before = evidence.size.width
        await pilot.press("z")
        await settle(pilot)
        assert not app.screen.query_one("#step-list").display
        assert evidence.size.width > before + 20
        await pilot.press("z")
        await settle(pilot)
        assert app.screen.query_one("#step-list").display
