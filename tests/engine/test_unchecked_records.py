"""A record streamed before the task stopped is kept, shown unchecked, never 'passed'.

The streaming skill sends the record ``probe-1``, then the user cancels (or the agent goes
away): the run used to end with no trace of it on any surface (the TUI's Results said "No
supporting records."), although the person had seen it arrive. RULES CP10, CP11.
"""

from __future__ import annotations

import asyncio

from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.engine.report_text import render_text
from tests.support.agents import StartAgent
from tests.support.cancelled_stream import stream_until_a_record


async def _cancel(procedure: Procedure) -> None:
    await procedure.cancel()


async def test_a_record_streamed_before_a_cancel_is_kept_unchecked(
    reference_agent: StartAgent,
) -> None:
    """Cancelled after probe-1 arrived: step 9 is cancelled, steps 10-11 are not passed,
    and the run, the text report and --json all still name probe-1 as received and not
    checked (not as a valid record)."""
    agent = reference_agent(step_delay=1.0)
    run = await stream_until_a_record(agent.url, _cancel)
    statuses = [step.status.value for step in run.steps[8:]]
    assert statuses[0] == "cancelled" and "passed" not in statuses, statuses
    assert run.answers.record_verdicts == []  # nothing was judged valid
    unchecked = run.answers.unchecked_artifacts
    assert unchecked is not None and not unchecked.in_flight
    assert [a.artifact_id for a in unchecked.artifacts] == ["probe-1"]
    assert unchecked.why.startswith("received before the task was cancelled")
    text = render_text(run)
    assert "artifact probe-1 [link-probe]: not checked" in text
    assert "received before the task was cancelled" in text
    report = run_to_json(run)
    assert report["records"] == []
    assert report["unchecked_artifacts"]["artifacts"] == [
        {"artifactId": "probe-1", "name": "link-probe"}
    ]


async def test_a_record_streamed_before_the_stream_broke_is_kept(
    reference_agent: StartAgent,
) -> None:
    """The agent goes away after probe-1: step 9 fails, and the task the run keeps (and a
    saved session stores) still holds probe-1, shown as received before step 9 failed."""
    agent = reference_agent(step_delay=3.0)

    async def agent_goes_away(_procedure: Procedure) -> None:
        await asyncio.to_thread(agent.stop)

    run = await stream_until_a_record(agent.url, agent_goes_away)
    failed = run.failed_step
    assert failed is not None and failed.step == 9, [s.status for s in run.steps]
    assert "passed" not in [step.status.value for step in run.steps[9:]]
    assert run.task is not None and [a.artifact_id for a in run.task.artifacts] == ["probe-1"]
    unchecked = run.answers.unchecked_artifacts
    assert unchecked is not None
    assert unchecked.why.startswith("received before step 9 failed")
