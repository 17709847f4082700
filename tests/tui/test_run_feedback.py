"""Pilot tests of what screens say while a run is busy and after it ends."""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox, DataTable, Input

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Artifact, Part, StreamEvent, Task
from sia_tui.core.run.read_model import Run, StepResult, StepStatus, Target
from sia_tui.tui.host import BUSY_NOTICE
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    GatedEngine,
    enter_arguments,
    gated_app,
    invoke_appendix_b,
    read_only_app,
    record_notices,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)


async def test_n_and_r_while_a_step_runs_are_refused_not_cancelling_it(user_dirs: UserDirs) -> None:
    app, built = gated_app(user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine = built[0]
        engine.hold = True
        told = record_notices(app)
        await pilot.press("2", "n")
        await wait_until(pilot, lambda: engine.run.steps[1].status is StepStatus.RUNNING)
        await pilot.press("n", "r")
        assert told.count(BUSY_NOTICE) == 2
        assert app.engine_busy  # the running step was not cancelled
        engine.gate.set()
        await settle(pilot)
        # Step 2 finished; the refused keys queued nothing (step 3 did not run).
        assert engine.run.steps[1].status is StepStatus.PASSED
        assert engine.run.steps[2].status is StepStatus.NOT_RUN
        assert engine.calls == ["step", "step"]


class ClosingEngine(GatedEngine):
    """Its step shows its mark, then keeps its worker a while (as a real step closes its
    push receiver after it passed) while ``hold`` is set."""

    async def step(self) -> StepResult | None:
        self.calls.append("step")
        result = self.run.steps[(self.run.next_step or 1) - 1]
        result.status = StepStatus.PASSED
        if self.hold:
            await self.gate.wait()
        return result


async def test_n_right_after_a_steps_mark_is_queued_not_busy(user_dirs: UserDirs) -> None:
    """n pressed once step 2 shows ✔ but before its worker has ended: "Queued", not
    "Busy", and step 3 runs when step 2's worker ends (once, however often n is pressed)."""
    app, built = gated_app(user_dirs, ClosingEngine)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine = built[0]
        engine.hold = True
        told = record_notices(app)
        await pilot.press("2", "n")
        await wait_until(pilot, lambda: engine.run.steps[1].status is StepStatus.PASSED)
        assert app.engine_busy  # the mark is drawn; the worker has not ended
        await pilot.press("n", "n")
        assert BUSY_NOTICE not in told
        assert told == ["Queued: the next step runs as soon as this one has ended."]
        engine.hold = False
        engine.gate.set()
        await settle(pilot)
        assert engine.run.steps[2].status is StepStatus.PASSED
        assert engine.calls == ["step", "step", "step"]


async def test_restart_still_interrupts_running_steps(user_dirs: UserDirs) -> None:
    app, built = gated_app(user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine = built[0]
        engine.hold = True
        await pilot.press("2", "n")
        await wait_until(pilot, lambda: engine.run.steps[1].status is StepStatus.RUNNING)
        engine.hold = False
        await pilot.press("R")
        await settle(pilot)
        assert "restart" in engine.calls
        assert engine.run.steps[0].status is StepStatus.PASSED


async def test_invoke_while_steps_run_is_refused(user_dirs: UserDirs) -> None:
    app, built = gated_app(user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine = built[0]
        engine.hold = True
        told = record_notices(app)
        await pilot.press("2", "n")
        await wait_until(pilot, lambda: engine.run.steps[1].status is StepStatus.RUNNING)
        app.invoke({"x": 1}, False)
        assert BUSY_NOTICE in told and "set_arguments" not in engine.calls
        engine.gate.set()
        await settle(pilot)


async def test_results_while_streaming_show_the_state_and_records_so_far(
    user_dirs: UserDirs,
) -> None:
    app, built = gated_app(user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        run = built[0].run
        run.task = Task("t-1", None, "TASK_STATE_WORKING", None, (), {})
        record = Artifact("observation-7", "observation", (Part("data", {"value": 93}),), {})
        run.stream_events.append(StreamEvent("artifact", artifact=record))
        await pilot.press("6")
        await settle(pilot)
        result = static_text(app, "#result-body")
        assert "task TASK_STATE_WORKING… (waiting for the final result)" in result
        assert "ended" not in result
        assert "observation-7" in static_text(app, "#records-body")


async def test_ctrl_t_arms_a_negative_test_valid_arguments_disarm_it_and_ctrl_j_sends_it(
    make_app: Any,
) -> None:
    """The footer names ctrl+t "Negative test" and the box reads "Negative test (ctrl+t)";
    with invalid arguments the status line says ctrl+t arms it and ctrl+j then sends them.
    Armed, then fixed: the box is off again and the status line says valid; a new typo is
    not sent by the ctrl+t pressed for the old one. Armed again for it, ctrl+j sends it and
    Results shows the agent's rejection (one app: the same journey goes on)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        invalid = APPENDIX_B_TEXT.replace("80", '"eighty"')
        screen = await enter_arguments(pilot, invalid)
        footer = " ".join(str(key.description) for key in app.screen.query("FooterKey"))
        assert "Negative test" in footer and "Send anyway" not in footer
        box = screen.query_one("#send-anyway", Checkbox)
        assert "Negative test (ctrl+t)" in str(box.label)
        verdict = static_text(app, "#verdict")
        assert "press ctrl+t to arm a deliberate negative test (ctrl+j then sends them)" in verdict
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert box.value and "negative test armed" in static_text(app, "#verdict")
        await enter_arguments(pilot, APPENDIX_B_TEXT)
        assert not box.value and not screen.send_anyway
        assert "✔ Arguments valid" in static_text(app, "#verdict")
        await enter_arguments(pilot, invalid)
        assert not box.value and "press ctrl+t to arm" in static_text(app, "#verdict")
        await send_anyway_and_see_the_rejection(pilot, screen)


async def test_ctrl_t_or_a_click_on_valid_arguments_arms_nothing_and_says_why(
    make_app: Any,
) -> None:
    """The example arguments are valid: ctrl+t leaves the negative test off and says there
    is nothing to test (armed, it would have stayed armed and sent the next typo); a click
    on the box does the same. A typo made then is not sent by ctrl+j."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        box = screen.query_one("#send-anyway", Checkbox)
        told = record_notices(app)
        await pilot.press("ctrl+t")
        await pilot.click("#send-anyway")
        await settle(pilot)
        assert not box.value and not screen.send_anyway
        assert len(told) == 2 and all(
            m.startswith("Nothing to test: these arguments are valid") for m in told
        ), told
        await enter_arguments(pilot, APPENDIX_B_TEXT.replace("80", '"eighty"'))
        await pilot.press("ctrl+j")
        await settle(pilot)
        run = app.current_run
        assert run is not None and run.task is None  # nothing sent
        assert isinstance(app.screen, InvokeScreen)


async def send_anyway_and_see_the_rejection(pilot: Any, screen: InvokeScreen) -> None:
    """Invalid arguments in the editor: ctrl+t arms the negative test (a notice and the
    status line say so), ctrl+j sends them, and Results shows the agent's rejection as
    remote: a passed expectation, not step 7's local finding."""
    app = pilot.app
    told = record_notices(app)
    await pilot.press("ctrl+t")
    await pilot.pause()
    assert screen.send_anyway
    armed = "Negative test armed: ctrl+j sends the invalid arguments"
    assert any(armed in m for m in told), told
    assert "negative test armed: ctrl+j sends them" in static_text(app, "#verdict")
    await pilot.press("ctrl+j")
    await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
    await settle(pilot)
    summary = static_text(app, "#error-summary")
    run = app.current_run
    # A deliberate negative test the agent rightly rejects is a passed expectation.
    assert run is not None and run.verdict.outcome.value == "negative_test_passed"
    assert run.failed_step is None and run.steps[6].status is StepStatus.PASSED
    assert "input_invalid" in summary
    assert "origin remote" in summary  # the agent's answer, not step 7's local finding
    assert "NEGATIVE TEST PASSED" in static_text(app, "#status")


async def test_results_after_a_failed_delegation_name_the_failing_step(make_app: Any) -> None:
    app = make_app("huge")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        run = app.current_run
        assert run is not None and run.failed_step is not None
        failed = run.failed_step
        shown = static_text(app, "#result-body") + static_text(app, "#status")
        assert f"step {failed.step} failed" in shown and failed.title in shown
        assert failed.message.split(":")[0] in shown
        assert "No task yet" not in shown


async def test_editor_keys_f3_skeleton_and_ctrl_k_left_to_the_editor(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        screen = await enter_arguments(pilot, '{"a": 1}')
        editor = screen.query_one(ArgumentEditor)
        editor.move_cursor((0, 4))
        await pilot.press("ctrl+k")  # TextArea's delete to end of line
        assert editor.text == '{"a"'
        await pilot.press("f3")
        assert '"resource_id"' in editor.text  # the skeleton is back
        editor.load_text("{}")
        await pilot.press("escape", "1")
        app.action_command_palette()
        await pilot.pause()
        await pilot.press(*"arguments: reset")
        await wait_until(
            pilot,
            lambda: (
                "arguments: reset to skeleton"
                in str(app.screen.query("CommandList").first().get_option_at_index(0).prompt)
                if app.screen.query("CommandList")
                else False
            ),
        )
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, InvokeScreen)
                and '"resource_id"' in app.screen.query_one(ArgumentEditor).text
            ),
        )


async def test_save_dialog_types_into_the_path_field(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
        await pilot.pause()
        # Nothing to redact: the dialog says so, with no empty table of placeholders.
        assert not app.screen.query_one("#redactions").display
        await pilot.press("n", "e", "w")
        assert isinstance(app.screen, RedactionPreviewScreen)  # `n` did not cancel
        assert app.screen.query_one("#destination", Input).value.endswith("new")


async def test_overview_after_a_failed_step_one_shows_why(user_dirs: UserDirs) -> None:
    app = snapshot_app(Target("http://127.0.0.1:1"), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        run = app.current_run
        assert run is not None and run.steps[0].status is StepStatus.FAILED
        body = static_text(app, "#card-body")
        assert "step 1 failed" in body and run.steps[0].message[:30] in body
        assert "No Agent Card yet" not in body
        assert "(none selected)  http://127.0.0.1:PORT" in static_text(app, "#target-header")


async def test_cancel_explains_why_nothing_happened(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        told = record_notices(app)
        await pilot.press("6", "x")
        assert any("No task to cancel" in m for m in told), told
        await invoke_appendix_b(pilot)
        told.clear()
        await pilot.press("x")
        assert any("not running" in m and "COMPLETED" in m for m in told), told


async def test_compose_diff_replaces_the_fetching_notice_and_focuses_the_table(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=(130, 38)) as pilot:
        await settle(pilot)
        await pilot.press("8", "f6")
        await settle(pilot)
        verdict = static_text(app, "#verdict")
        assert "Fetching" not in verdict and verdict.startswith("Diff A -> B")
        assert isinstance(app.focused, DataTable) and app.focused.id == "changes"
        await pilot.press("f5")
        await settle(pilot)
        fields = app.screen.query_one("#fields", DataTable)
        # The value columns share the width instead of a fixed 42 each.
        widths = [c.width for c in fields.columns.values()]
        assert sum(widths) + 2 * len(widths) > 110


async def test_not_jcs_digests_single_out_the_computed_one(make_app: Any) -> None:
    app = make_app("not-jcs")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        table = app.screen.query_one("#interface", DataTable)
        verdicts = [str(table.get_row_at(r)[1]) for r in range(3)]
        assert verdicts == ["✔ = returned", "✔ = advertised", "✘ ≠ both"]
        assert "computed over the returned document differs from both" in static_text(
            app, "#forensics"
        )
        # The computed digest's differing tail is underlined.
        computed = table.get_row_at(2)[2]
        assert any("underline" in str(span.style) for span in computed.spans)


async def test_overview_shortens_digests_to_sixteen_hex(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        run = app.current_run
        assert run is not None and run.card is not None and run.card.schema_interface
        digest = run.card.schema_interface.bindings[0].interface_digest
        body = static_text(app, "#card-body")
        assert digest[:23] + "…" in body and digest not in body


def test_a_running_step_says_it_waits_for_the_answer() -> None:
    from sia_tui.tui.display import PLAIN
    from sia_tui.tui.render.evidence import step_content

    run = Run(Target("fake-card.json"))
    run.steps[2].status = StepStatus.RUNNING
    shown = str(step_content(run, run.steps[2], PLAIN, pretty=True, limit=None))
    assert "waiting for the answer…" in shown and "No request was sent" not in shown


def test_step_8_with_its_stream_still_open_says_so() -> None:
    """Stepping with n in stream mode: step 8 passed and its stream is still open (its
    exchange is recorded when it closes); the pane says so, not "No request was sent"."""
    from sia_tui.tui.display import PLAIN
    from sia_tui.tui.render.evidence import step_content

    run = Run(Target("fake-card.json"))
    run.steps[7].status = StepStatus.PASSED
    run.stream_steps = [8]
    shown = str(step_content(run, run.steps[7], PLAIN, pretty=True, limit=None))
    assert "The stream is open: its exchange is listed here when it closes." in shown
    assert "No request was sent" not in shown


def test_a_failed_step_names_the_error_underneath() -> None:
    """The Steps pane says which limit ended the step (a timeout, the deadline, a size)."""
    from sia_tui.tui.display import PLAIN
    from sia_tui.tui.render.evidence import step_content

    run = Run(Target("fake-card.json"))
    failed = run.steps[8]
    failed.status, failed.message = StepStatus.FAILED, "the run's deadline of 2 s passed"
    failed.error_kind = "deadline_exceeded"
    shown = str(step_content(run, failed, PLAIN, pretty=True, limit=None))
    assert "Error: deadline_exceeded" in shown


async def test_read_only_results_never_ask_to_invoke(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Any
) -> None:
    from sia_tui.core.session import save_session
    from tests.support.tui import record_run

    path = tmp_path / "ok.session.json"
    save_session(await record_run(reference_agent().url), ClientOptions(), path)
    app = read_only_app(path, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        shown = static_text(app, "#result-body") + static_text(app, "#status")
        assert "screen 5" not in shown and "recorded session" in shown


async def test_every_error_of_long_arguments_is_listed_and_counted(make_app: Any) -> None:
    """~100 KB of arguments with three errors: all three are listed and underlined, and the
    status line counts three (it used to list the first with a note, and count the note)."""
    import json

    from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

    value: dict[str, Any] = json.loads(json.dumps(APPENDIX_B_ARGUMENTS))
    value["condition"]["operator"] = "about"
    value["condition"]["threshold"] = "eighty"
    value["x_notes"] = [{"id": i, "note": "padding to grow it"} for i in range(2500)]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "r")
        await settle(pilot)
        screen = await enter_arguments(pilot, json.dumps(value, indent=2))
        table = screen.query_one("#errors", DataTable)
        assert table.row_count == 3
        assert static_text(app, "#verdict").startswith("✘ 3 problem(s)")
