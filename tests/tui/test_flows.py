"""Pilot tests of the flows a user takes, against the reference agent on 127.0.0.1."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList

from sia_tui.core.run.read_model import StepStatus
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.overview import OverviewScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.steps import StepsScreen
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    record_notices,
    settle,
    static_text,
    wait_until,
)


async def test_demo_opens_on_the_card_with_step_one_passed(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, OverviewScreen)
        assert app.current_run is not None
        assert app.current_run.steps[0].status is StepStatus.PASSED
        assert "sia-tui reference agent" in static_text(app, "#card-body")
        # The header names the target (the test scrubber hides the port).
        assert "127.0.0.1:PORT" in static_text(app, "#target-header")


async def test_r_then_invoke_runs_all_eleven_steps_green(make_app: Any) -> None:
    """After `r` stops at step 7, a newcomer is told to press 5 and ctrl+j; the Appendix B
    arguments then pass all eleven steps, Results shows both artifacts, and the record's
    link jumps to the artifact it references. (One app: the journey a person takes.)"""
    app = make_app()
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        assert any("press 5" in m and "ctrl+j" in m for m in told), told
        run = app.current_run
        assert run is not None
        assert [s.status for s in run.steps[:6]] == [StepStatus.PASSED] * 6
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        assert screen.valid
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await settle(pilot)
        assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11
        # Invoke shows both artifacts: the result and the supporting record.
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        assert "condition_not_met" in result and "✔ valid" in result
        assert "observation-7" in records and "✔ valid" in records
        # The record link jumps to the referenced artifact.
        links = app.screen.query_one("#links", OptionList)
        assert "observation-7" in str(links.get_option_at_index(0).prompt)
        links.focus()
        links.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#records-body")  # the records pane's text


async def test_digest_card_fault_fails_step_four_locally(make_app: Any) -> None:
    app = make_app("digest-card")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        run = app.current_run
        assert run is not None
        failed = run.failed_step
        assert failed is not None and failed.step == 4
        assert failed.code == "interface_invalid"
        assert failed.origin is not None and failed.origin.value == "local"
        assert isinstance(app.screen, StepsScreen)
        evidence = static_text(app, "#evidence-body")
        assert "interface_invalid" in evidence and "origin local" in evidence
        assert "What to do next" in evidence
        # RULES CP0: nothing after the failed step ran.
        assert all(s.status is StepStatus.SKIPPED for s in run.steps[4:])


async def test_editing_the_arguments_shows_and_clears_an_error_and_locates_bad_json(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        bad = APPENDIX_B_TEXT.replace("80", '"eighty"')
        screen = await enter_arguments(pilot, bad)
        problems = screen.query_one("#errors", DataTable)
        assert not screen.valid
        assert problems.row_count == 1
        assert "/condition/threshold" in str(problems.get_row_at(0)[1])
        assert "2:" not in str(problems.get_row_at(0)[0])  # located on the threshold line
        # ctrl+j with invalid input sends nothing and says why (RULES CP7).
        told = record_notices(app)
        await pilot.press("ctrl+j")
        await pilot.pause()
        assert isinstance(app.screen, InvokeScreen)
        assert app.current_run is not None and app.current_run.arguments is None
        assert any(m.startswith("Nothing sent") and "ctrl+t" in m for m in told), told
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        assert screen.valid and problems.row_count == 0
        # Text that is not JSON is reported at its position.
        screen = await enter_arguments(pilot, '{\n  "resource_id": ,\n}')
        assert screen.last_result is not None and screen.last_result.parse_error is not None
        verdict = static_text(app, "#verdict")
        assert verdict.startswith("✘ Not JSON at line 2, column ")
        assert "arguments:2:" not in verdict  # the position said once, not twice
        assert "arguments:2:" not in str(problems.get_row_at(0)[5])


async def test_edits_persist_per_target_and_skill(make_app: Any, user_dirs: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        screen = await enter_arguments(pilot, '{"typed": "by hand"}')
        await pilot.press("escape")
        run = app.current_run
        assert run is not None and screen is not None
        # The save is debounced: wait for the typed text itself (the skeleton that was there
        # before may already have been saved under the same key).
        await wait_until(
            pilot,
            lambda: (
                user_dirs.load_edit(run.target.location, run.skill_id) == '{"typed": "by hand"}'
            ),
        )


async def test_markup_fault_renders_literally(make_app: Any) -> None:
    app = make_app("markup")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        skills = app.screen.query_one("#skills", OptionList)
        prompts = [str(skills.get_option_at_index(i).prompt) for i in range(skills.option_count)]
        shown = "\n".join(prompts)
        # Rich markup from the agent is shown as typed; the escape and bell are made visible.
        assert "[bold red]pwned[/bold red] [/foo]" in shown
        assert "␛[2J␇" in shown and "\x1b" not in shown


async def test_f1_shows_help_for_the_focused_pane(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await pilot.press("f1")
        await pilot.pause()
        from textual.widgets import Markdown

        from sia_tui.tui.screens.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        assert "Run all" in app.screen.markdown and "# Steps: step list" in app.screen.markdown
        assert app.screen.query_one(Markdown) is not None
        await pilot.press("escape")
        assert isinstance(app.screen, StepsScreen)


async def _invoke_in_stream_mode(app: SiaApp, pilot: Pilot[Any]) -> None:
    """Run steps 1-6, then send Appendix B's arguments in stream mode, to the Results."""
    await settle(pilot)
    await pilot.press("2", "r")
    await settle(pilot)
    screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
    from textual.widgets import Select

    screen.query_one("#mode", Select).value = "stream"
    await pilot.press("ctrl+j")
    await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
    await settle(pilot)


async def test_stream_mode_shows_live_events_passes_and_step_8_shows_the_request(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _invoke_in_stream_mode(app, pilot)
        run = app.current_run
        assert run is not None and run.mode == "stream"
        assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11
        assert run.stream_events, "the invocation keeps the events it streamed"
        assert "TASK_STATE_COMPLETED" in static_text(app, "#status")
        # Step 8 on the Steps screen: its Exchanges list the SendStreamingMessage request it
        # sent (never "No request was sent in this step"), and step 9, which read the events
        # after acceptance, lists the same exchange.
        await pilot.press("2")
        await settle(pilot)
        steps = app.screen
        assert isinstance(steps, StepsScreen)
        steps.select_step(8)
        await settle(pilot)
        delegation = static_text(app, "#evidence-body")
        steps.select_step(9)
        await settle(pilot)
        reception = static_text(app, "#evidence-body")
    assert "No request was sent" not in delegation
    assert "Exchanges (1)" in delegation and "SendStreamingMessage" in delegation
    assert "Exchanges (1)" in reception and "SendStreamingMessage" in reception


async def test_execute_posture_asks_before_sending(make_app: Any) -> None:
    from sia_tui.tui.screens.confirm import ConfirmScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.choose_skill("apply_interface_shutdown")
        await pilot.press("2", "r")
        await settle(pilot)
        run = app.current_run
        assert run is not None and run.document is not None
        assert run.document["authority"]["default_mode"] == "execute"
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("ctrl+t")  # send anyway, so the skeleton's validity does not matter
        await pilot.press("ctrl+j")
        # The engine stops before step 8 and the app asks (a negative test too).
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await settle(pilot)
        # Declined: nothing was delegated (RULES SID5: authority is not permission).
        assert run.steps[7].status is StepStatus.NOT_RUN
        assert run.task is None


async def test_theme_choice_is_remembered(reference_agent: Any, user_dirs: Any) -> None:
    from sia_tui.core.run.read_model import Target

    agent = reference_agent()
    app = SiaApp(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "sia-dark"
        app.theme = "sia-high-contrast"
        await pilot.pause()
    assert user_dirs.load_settings()["theme"] == "sia-high-contrast"
    again = SiaApp(Target(agent.url), dirs=user_dirs)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "sia-high-contrast"


async def test_palette_offers_prefixed_commands(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in (
            "step: run next",
            "step: run all",
            "step: restart",
            "digest: copy advertised",
            "theme: sia-light",
            "mode: digests",
        ):
            assert wanted in titles
