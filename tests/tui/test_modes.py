"""Pilot tests of modes 7 (History) and 8 (Compose) against the reference agent."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import Button, DataTable, Input, Select, Static

from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.compose_mode import ComposeMode, default_pair
from sia_tui.tui.screens.history import HistoryMode
from sia_tui.tui.screens.overview import OverviewScreen
from tests.support.tui import SIZE, record_notices, settle


def _value(app: SiaApp, widget_id: str) -> str:
    return app.screen.query_one(f"#{widget_id}", Input).value


async def _compose(app: SiaApp, pilot: Any, upstream: str, downstream: str) -> str:
    """Fill the skill ids, press F5, return the verdict panel's text."""
    app.screen.query_one("#left-skill", Input).value = upstream
    app.screen.query_one("#right-skill", Input).value = downstream
    app.screen.query_one("#compose", Button).focus()
    await pilot.press("f5")
    await settle(pilot)
    return str(app.screen.query_one("#verdict", Static).visual)


async def test_seven_and_eight_switch_modes_and_the_palette_names_them(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        assert isinstance(app.screen, HistoryMode)
        await pilot.press("8")
        await settle(pilot)
        assert isinstance(app.screen, ComposeMode)
        await pilot.press("1")  # focus is off the text fields: number keys still switch
        await settle(pilot)
        assert isinstance(app.screen, OverviewScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in (
            "mode: history",
            "mode: compose",
            "session: save",
            "session: mark value secret",
        ):
            assert wanted in titles
        assert {b.id for b in app.BINDINGS if hasattr(b, "id")} >= {
            "mode.history",
            "mode.compose",
            "session.save",
        }


async def test_compose_defaults_to_the_current_agent_and_gives_both_verdicts(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("8")
        await settle(pilot)
        run = app.current_run
        assert run is not None
        assert _value(app, "left-card") == _value(app, "right-card") == run.target.location
        assert _value(app, "left-skill") == "evaluate_resource_condition"
        picker: Select[str] = app.screen.query_one("#left-pick", Select)
        picker.value = "measure_available_bandwidth"  # the picker fills the field
        await pilot.pause()
        assert _value(app, "left-skill") == "measure_available_bandwidth"
        # The identical pair: direct composition allowed (RULES CMP1).
        allowed = await _compose(app, pilot, "measure_available_bandwidth", "admit_traffic_demand")
        assert "direct composition allowed" in allowed
        # The look-alike pair: refused, naming the fields that differ (RULES CMP2).
        refused = await _compose(app, pilot, "measure_link_capacity", "admit_traffic_demand")
        assert "✘ direct composition not allowed: schema_uri, digest differ" in refused
        assert "looks alike" in refused  # and why looking alike is not enough
        fields = app.screen.query_one("#fields", DataTable)
        marks = [str(fields.get_row_at(r)[3]) for r in range(fields.row_count)]
        assert marks == ["✘ differs", "✔ equal", "✔ equal", "✘ differs"]


def test_default_pair_prefers_the_skill_being_debugged() -> None:
    skills = ["a", "b", "c"]
    assert default_pair(skills, "b") == ("b", "a")
    assert default_pair(skills, None) == ("a", "b")
    assert default_pair([], "x") == ("x", "")


def test_the_mode_table_generates_keys_palette_and_docs() -> None:
    """One ModeSpec row per screen makes its number key, its palette command and
    its docs/TUI.md row; nothing else lists the screens."""
    from pathlib import Path

    from sia_tui.tui.modes import MODE_SPECS, docs_table, regenerate_docs

    bindings = {b.id: b for b in SiaApp.BINDINGS if isinstance(b, Binding)}
    for spec in MODE_SPECS:
        binding = bindings[f"mode.{spec.name}"]
        assert (binding.key, binding.action) == (spec.key, f"switch_mode('{spec.name}')")
        assert not binding.show  # the tab bar shows the keys, not the footer
        assert spec.name in SiaApp.MODES
        assert f"| `{spec.key}` | {spec.title} | `mode: {spec.name}` |" in docs_table()
    doc = (Path(__file__).resolve().parents[2] / "docs" / "TUI.md").read_text(encoding="utf-8")
    assert regenerate_docs(doc) == doc, "run `uv run python scripts/mode_table.py`"
    assert len({spec.key for spec in MODE_SPECS}) == len(MODE_SPECS)


def test_each_screen_command_runs_an_action_of_its_screen() -> None:
    """A screen's palette commands sit on its mode row (screens load on first use), so
    each must name an action its screen has: a renamed action breaks this, not the palette."""
    from sia_tui.tui.matrix_app import MATRIX_SPEC
    from sia_tui.tui.modes import MODE_SPECS

    commands = [(spec, c) for spec in (*MODE_SPECS, MATRIX_SPEC) for c in spec.commands]
    assert {c.title for _, c in commands} >= {
        "arguments: reset to skeleton",
        "digest: copy canonical text",
    }
    for spec, command in commands:
        assert callable(getattr(spec.screen_class(), f"action_{command.action}", None)), (
            f"{spec.screen} has no action_{command.action} for {command.title!r}"
        )


async def test_a_screen_command_that_needs_a_choice_says_where_to_make_it(
    make_app: Any,
) -> None:
    """From the Overview, "digest: copy canonical text" does not switch screens: it needs a
    row chosen on Digests first, and says so."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        told = record_notices(app)
        command = next(
            c
            for c in app.get_system_commands(app.screen)
            if c.title == "digest: copy canonical text"
        )
        command.callback()
        await pilot.pause()
        assert told == ["Open the Digests screen (3) and select a row first."]
        assert app.current_mode == "overview"


async def test_every_mode_has_its_palette_command_and_tab(make_app: Any) -> None:
    from sia_tui.tui.modes import MODE_SPECS
    from sia_tui.tui.widgets.mode_tabs import ModeTabs

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for spec in MODE_SPECS:
            assert f"mode: {spec.name}" in titles
            await pilot.press(spec.key)
            await settle(pilot)
            assert app.current_mode == spec.name
            tabs = str(app.screen.query_one(ModeTabs).render())
            assert f" {spec.key} {spec.title} " in tabs  # the current tab in full
            assert all(other.key in tabs for other in MODE_SPECS)


async def test_compose_shows_the_agent_without_its_password_and_still_uses_it(
    reference_agent: Any, user_dirs: Any
) -> None:
    """The agent fields prefilled from a target with ``user:password@`` show it without
    them (a screen may be shared or recorded), and composing still sends them."""
    from sia_tui.core.run import Target
    from tests.support.tui import snapshot_app

    agent = reference_agent()
    secret = agent.url.replace("http://", "http://ops:canary-pw-5c1e@")
    app = snapshot_app(Target(secret), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("8")
        await settle(pilot)
        assert _value(app, "left-card") == _value(app, "right-card") == agent.url
        screen = app.screen
        assert isinstance(screen, ComposeMode)
        sides = screen.panel._sides()
        assert sides is not None and sides[0] == sides[2] == secret


async def test_the_overview_adds_a_cards_skills_in_one_batch(
    make_app: Any, monkeypatch: Any
) -> None:
    """Each added option re-measures the list: one by one, a card with thousands of
    skills took quadratic time to show."""
    from sia_tui.tui.widgets.literal import LiteralOptionList

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        batches: list[int] = []
        add_options = LiteralOptionList.add_options

        def counted(self: LiteralOptionList, options: Any) -> LiteralOptionList:
            options = list(options)
            batches.append(len(options))
            return add_options(self, options)

        monkeypatch.setattr(LiteralOptionList, "add_options", counted)
        run = app.current_run
        assert run is not None and run.card is not None
        screen.show_run(run)
        assert batches == [len(run.card.skills)]
