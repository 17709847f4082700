"""Every key does what it says, where a newcomer presses it."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Select, Static, Tree

from sia_tui.core.run import StepStatus
from sia_tui.core.session import history
from sia_tui.tui.display import PLAIN
from sia_tui.tui.host import BUSY_NOTICE
from sia_tui.tui.screens.digests import DigestsScreen
from sia_tui.tui.screens.invoke import EDITOR_KEYS, InvokeScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.tui import (
    SIZE,
    gated_app,
    hold_a_running_step,
    invoke_appendix_b,
    press,
    record_notices,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)


async def test_the_overview_opens_on_the_skill_list_with_the_current_skill(
    make_app: Any,
) -> None:
    """Enter works at once: the list has the focus, ● highlighted, describe_skill disabled."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        skills = app.screen.query_one("#skills", OptionList)
        assert skills.has_focus
        highlighted = skills.get_option_at_index(skills.highlighted or 0)
        assert highlighted.id == "skill-evaluate_resource_condition"
        describe = skills.get_option("skill-describe_skill")
        assert describe.disabled  # never a domain skill: no false "not advertised" fault
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, StepsScreen)
        run = app.current_run
        assert run is not None and run.skill_id == "evaluate_resource_condition"
        assert [s.status for s in run.steps[:6]] == [StepStatus.PASSED] * 6


async def test_r_on_the_overview_runs_the_steps(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "r")
        assert isinstance(app.screen, StepsScreen)
        run = app.current_run
        assert run is not None and run.verdict.waiting_for_arguments


async def test_esc_leaves_a_recorded_run_for_the_live_one_unchanged(make_app: Any) -> None:
    """Opening a history entry no longer traps the session: Esc (or the palette) brings the
    live run back exactly as it was, its engine still open."""
    app = make_app("digest-card")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await wait_until(pilot, lambda: len(history.list_history()) == 1)
        live_engine, live_run = app.engine, app.current_run
        assert live_run is not None
        statuses = [s.status for s in live_run.steps]
        await pilot.press("7", "enter")
        await wait_until(pilot, lambda: app.read_only)
        await settle(pilot)
        assert app.has_live_run
        assert "session (read-only, esc: live run)" in static_text(app, "#target-header")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "session: back to the live run" in titles
        await pilot.press("escape")
        await settle(pilot)
        assert not app.read_only and app.engine is live_engine
        assert app.current_run is live_run and [s.status for s in live_run.steps] == statuses
        assert "read-only" not in static_text(app, "#target-header")
        await pilot.press("R")  # the live engine still works
        await settle(pilot)
        assert app.current_run is not None and app.current_run.steps[0].status.value == "passed"


async def test_invoke_while_steps_run_says_so_not_not_json(user_dirs: UserDirs) -> None:
    app, built = gated_app(user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        engine = built[0]
        await hold_a_running_step(pilot, engine)
        await pilot.press("5")
        await pilot.pause()
        assert "Steps are running" in static_text(app, "#verdict")
        told = record_notices(app)
        await pilot.press("ctrl+j")
        await pilot.pause()
        assert told == [BUSY_NOTICE]
        engine.gate.set()
        await settle(pilot)


async def test_the_editor_shows_its_escape_and_the_mode_picker_its_label(
    make_app: Any,
) -> None:
    """The editor names its keys and the mode picker its label; f3 and f4 can be undone;
    Tab indents in the editor and Esc, then Tab, moves on. (One app: all in the editor.)"""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r", "5")
        screen = app.screen
        assert isinstance(screen, InvokeScreen)
        editor = screen.query_one(ArgumentEditor)
        assert editor.has_focus and editor.border_subtitle == EDITOR_KEYS
        assert "esc leaves the editor (then tab" in EDITOR_KEYS
        labels = [str(w.render()) for w in screen.query("#options Label")]
        assert labels == ["response mode (f8)"]
        await f3_and_f4_can_be_undone_with_ctrl_z(pilot, screen, editor)
        await pilot.press("tab")
        assert editor.has_focus  # Tab indents inside the editor
        await pilot.press("escape", "tab")
        assert not editor.has_focus  # Esc, then Tab, moves on


async def test_the_editor_starts_with_the_card_skills_example(
    sdk_extension_agent_url: str, user_dirs: UserDirs
) -> None:
    """The a2a-sdk peer's document declares no examples; its card's skill entry lists one:
    the editor starts with it (f3 gives the skeleton, f4 the example again)."""
    import json

    from sia_tui.core.run import Target
    from tests.support.sdk_extension_agent import CARD_EXAMPLE

    example = json.dumps(CARD_EXAMPLE, indent=2)
    app = snapshot_app(Target(sdk_extension_agent_url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r")
        told = record_notices(app)
        await pilot.press("5")
        screen = app.screen
        assert isinstance(screen, InvokeScreen)
        await wait_until(pilot, lambda: screen.last_result is not None)
        editor = screen.query_one(ArgumentEditor)
        assert editor.text == example and screen.valid
        assert any("the card skill's examples[1]" in notice for notice in told), told
        await pilot.press("f3")
        await wait_until(pilot, lambda: editor.text != example)
        await pilot.press("f4")
        await wait_until(pilot, lambda: editor.text == example)


async def f3_and_f4_can_be_undone_with_ctrl_z(
    pilot: Any, screen: InvokeScreen, editor: ArgumentEditor
) -> None:
    """The skeleton (f3) and the example (f4) replace the text as one edit: ctrl+z brings
    back what was typed, so neither key loses work."""
    await wait_until(pilot, lambda: screen.last_result is not None)
    editor.select_all()
    await pilot.press(*'{"mine": 1}')
    typed = editor.text
    assert typed == '{"mine": 1}'
    for key in ("f3", "f4"):
        await pilot.press(key)
        await wait_until(pilot, lambda: editor.text != typed)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: editor.text == typed)
        await pilot.press("ctrl+y")  # and redo puts the replacement back
        await wait_until(pilot, lambda: editor.text != typed)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: editor.text == typed)


async def test_the_document_and_digest_panes_then_n_after_step_eleven(make_app: Any) -> None:
    """After steps 1-6: the document pane asks to pick a node until one is; the digest panes
    name what they show and follow the row. After the invocation, n says the run is
    complete. (One app: each screen is read in turn, as a person does.)"""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r", "4")
        assert "Pick a node on the left" in static_text(app, "#detail-body")
        app.screen.query_one(Tree).focus()
        await pilot.press("down")
        await settle(pilot)
        assert "Pick a node" not in static_text(app, "#detail-body")
        await press(pilot, "3")
        screen = app.screen
        assert isinstance(screen, DigestsScreen)
        pretty = screen.query_one("#pretty-pane")
        assert pretty.border_title == "Pretty JSON: the document"
        screen.query_one("#schemas").focus()
        await settle(pilot)
        assert pretty.border_title == "Pretty JSON: input_schema"
        await pilot.press("down", "down")
        await settle(pilot)
        assert pretty.border_title == "Pretty JSON: output_schema"
        assert screen.query_one("#canonical-pane").border_title == (
            "JCS bytes (RFC 8785): output_schema"
        )
        assert '"type": "object"' in static_text(app, "#pretty-body")
        await invoke_appendix_b(pilot)
        told = record_notices(app)
        await pilot.press("2", "n")
        await settle(pilot)
        assert told and told[-1].startswith("The run is complete: PASSED")


async def test_evidence_never_shows_only_its_kind(make_app: Any) -> None:
    """A step whose typed evidence holds nothing but ``kind`` shows no Evidence block."""
    from sia_tui.core.run import DigestEvidence, Run, Target
    from sia_tui.tui.render.evidence import step_content

    run = Run(Target("card.json"))
    step = run.steps[3]
    step.status = StepStatus.FAILED
    step.evidence = DigestEvidence()
    shown = step_content(run, step, PLAIN, pretty=True, limit=None).plain
    assert "Evidence" not in shown and '"kind"' not in shown
    step.evidence = DigestEvidence(advertised="sha256:x")
    assert (
        '"advertised": "sha256:x"' in step_content(run, step, PLAIN, pretty=True, limit=None).plain
    )


async def test_compose_fields_keep_their_width_at_80_columns(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "8")
        card = app.screen.query_one("#left-card")
        skill = app.screen.query_one("#left-skill")
        assert card.size.width >= 24 and skill.size.width >= 12
        assert isinstance(app.screen.query_one("#left-pick"), Select)
        assert isinstance(app.screen.query_one("#verdict"), Static)
