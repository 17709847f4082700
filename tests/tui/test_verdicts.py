"""Verdicts on screen (issue 10): what a person reads on each screen is the run's own verdict."""

from __future__ import annotations

from typing import Any

from sia_tui.core.engine.model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.storage import UserDirs
from tests.support.tui import (
    SIZE,
    enter_arguments,
    invoke_appendix_b,
    settle,
    static_text,
    wait_until,
)


# -- item 3: each pane shows its own verdict, with the located error --------------------------
async def test_a_bad_record_is_not_blamed_on_the_valid_result(make_app: Any) -> None:
    """record-invalid: the result pane says valid; the record pane names the record's own
    error (pointer, keyword, message); the header shows output_invalid (local), not only
    the agent's COMPLETED."""
    app = make_app("record-invalid")
    async with app.run_test(size=SIZE) as pilot:
        await invoke_appendix_b(pilot)
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "✔ valid against the output schema" in result
    assert "does not validate" not in result
    assert "✘ does not validate against its record schema" in records
    assert '"" (root)' in records and "required" in records and "observed_at" in records
    assert "TASK_STATE_COMPLETED" in status
    assert "✘ step 10 output_invalid (local)" in status
    assert "supporting record 'observation-7' does not validate" in status


async def test_an_invalid_result_shows_its_pointer_and_reason(make_app: Any) -> None:
    """output-invalid: the result pane gives the pointer, the keyword and why; the records
    stay valid."""
    app = make_app("output-invalid")
    async with app.run_test(size=SIZE) as pilot:
        await invoke_appendix_b(pilot)
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "✘ does not validate against the output schema" in result
    assert "/result" in result and "[enum:" in result
    assert "✔ valid against its record schema" in records
    assert "✘ step 10 output_invalid (local): the result does not validate" in status


# -- item 6: a cancel the user asked for reads "cancelled", not a failure ----------------------
async def test_x_cancels_the_running_task_and_the_screen_says_cancelled(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    """The long-running skill streams; x cancels it: the Results header says CANCELLED, step
    9 is cancelled (⊗), and nothing is reported as failed."""
    agent = reference_agent(step_delay=0.5)
    target = Target(agent.url, skill_id="check_link_capacity", mode="stream")
    app = SiaApp(target, dirs=user_dirs, snapshot_mode=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        await enter_arguments(pilot, '{"link_id": "link-7", "required_mbps": 400}')
        await pilot.press("ctrl+j")
        run = app.current_run
        assert run is not None
        # Not wait_until: it waits for the engine worker, i.e. for the task to end.
        for _ in range(250):
            if run.task is not None and run.steps[8].status.value == "running":
                break
            await pilot.pause(0.02)
        assert run.task is not None and not run.task.terminal
        await pilot.press("x")
        await wait_until(pilot, lambda: run.steps[8].status.value not in ("running", "not_run"))
        await settle(pilot)
        status = static_text(app, "#status")
    assert "⊗ CANCELLED: the task was cancelled as asked" in status
    assert run.steps[8].status.value == "cancelled" and run.failed_step is None
