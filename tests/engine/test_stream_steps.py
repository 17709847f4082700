"""Which step lists a stream's exchange: step 8 sent SendStreamingMessage, step 9 read on."""

from __future__ import annotations

import asyncio

from sia_tui.core.a2a import ClientOptions
from sia_tui.core.engine import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.run import Run, Step, Target
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"


def _stream_exchange(run: Run) -> int:
    (stream,) = [e for e in run.exchanges if e.purpose == "invoke"]
    assert b"SendStreamingMessage" in stream.request_body  # the request step 8 sent
    return stream.seq


async def test_the_streaming_request_is_step_8s_and_its_later_events_step_9s(
    reference_agent: StartAgent,
) -> None:
    """Step 8 no longer says no request was sent: it lists the stream it opened, and step 9,
    which read the events after acceptance, lists it too; the JSON report says the same."""
    agent = reference_agent()
    procedure = Procedure(Target(agent.url, skill_id=SKILL, mode="stream"), ClientOptions())
    procedure.use_example()
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.verdict.outcome == "passed", run.verdict.summary
    seq = _stream_exchange(run)
    assert run.step(Step.DELEGATION).exchanges == [seq]
    assert run.step(Step.RECEPTION).exchanges == [seq]
    steps = {s["step"]: s["exchanges"] for s in run_to_json(run)["steps"]}
    assert steps[8] == steps[9] == [seq]
    assert run.stream_steps == []  # the stream is closed


async def test_a_stream_open_after_step_8_is_listed_there_when_it_closes(
    reference_agent: StartAgent,
) -> None:
    """Stepping one step at a time: while the stream is open its steps are known (the TUI
    says the stream is open, not that nothing was sent), and a cancel sent meanwhile is
    not taken for the stream."""
    agent = reference_agent(step_delay=0.5)
    target = Target(agent.url, skill_id="check_link_capacity", mode="stream")
    procedure = Procedure(target, ClientOptions())
    procedure.set_arguments({"link_id": "link-7", "required_mbps": 400})
    try:
        await procedure.run_until(Step.DELEGATION)
        assert procedure.run.stream_steps == [8]
        receiving = asyncio.ensure_future(procedure.run_all())
        await asyncio.sleep(0.05)
        assert procedure.run.stream_steps == [8, 9]
        await procedure.cancel()
        run = await receiving
    finally:
        await procedure.aclose()
    seq = _stream_exchange(run)
    (cancel,) = [e.seq for e in run.exchanges if b"CancelTask" in e.request_body]
    assert run.step(Step.DELEGATION).exchanges == [seq]
    assert seq in run.step(Step.RECEPTION).exchanges
    assert cancel not in run.step(Step.DELEGATION).exchanges
