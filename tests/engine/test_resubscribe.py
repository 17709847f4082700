"""A stream that closes before the task ends: the engine reattaches with SubscribeToTask
(0.3: tasks/resubscribe), whose first event is the Task snapshot, and reads it to the final
state; an agent that refuses is polled, and the evidence note says which happened."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.evidence import ReceptionEvidence
from sia_tui.core.engine.model import Run, Target
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.verdicts import RunOutcome
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS


async def run_stream(url: str, binding: str) -> Run:
    procedure = Procedure(
        Target(url, skill_id="evaluate_resource_condition", binding=binding, mode="stream"),
        ClientOptions(),
    )
    procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
async def test_a_dropped_stream_is_resubscribed_to_its_final_state(
    reference_agent: StartAgent, binding: str
) -> None:
    agent = reference_agent(drop_stream=True, grpc_port=0 if binding == "grpc" else None)
    run = await run_stream(agent.url, binding)
    assert run.outcome is RunOutcome.PASSED, run.summary
    reception = run.evidence(ReceptionEvidence)
    assert reception is not None
    assert reception.note == "the stream ended before a final state; resubscribed (SubscribeToTask)"
    purposes = [ex.purpose for ex in run.exchanges]
    assert "resubscribe" in purposes and "poll" not in purposes


async def test_resubscribe_over_a2a_03_is_tasks_resubscribe(reference_agent: StartAgent) -> None:
    agent = reference_agent(fault="v03", drop_stream=True)
    run = await run_stream(agent.url, "jsonrpc")
    assert run.outcome is RunOutcome.PASSED, run.summary
    [call] = [ex for ex in run.exchanges if ex.purpose == "resubscribe"]
    assert b'"method":"tasks/resubscribe"' in call.request_body
