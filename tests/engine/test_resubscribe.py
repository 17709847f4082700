"""A stream that closes before the task ends: the engine reattaches with SubscribeToTask
(0.3: tasks/resubscribe), whose first event is the Task snapshot, and reads it to the final
state; an agent that refuses is polled, and the evidence note says which happened."""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.http.wire import unsupported_operation
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.run.later_evidence import ReceptionEvidence
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.run.verdicts import RunOutcome
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, run_appendix_b


async def run_stream(url: str, binding: str, *, long_running: bool = False) -> Run:
    """``long_running``: the skill that takes a few agent steps (still running when the
    client resubscribes)."""
    skill = "check_link_capacity" if long_running else "evaluate_resource_condition"
    procedure = Procedure(
        Target(url, skill_id=skill, binding=binding, mode="stream"), ClientOptions()
    )
    if long_running:
        procedure.use_example()
    else:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
async def test_a_dropped_stream_is_resubscribed_to_its_final_state(
    reference_agent: StartAgent, binding: str
) -> None:
    # A task still running when the client resubscribes: SubscribeToTask on a finished
    # task is UnsupportedOperation (A2A 1.0), and the engine polls instead.
    agent = reference_agent(
        drop_stream=True, step_delay=0.2, grpc_port=0 if binding == "grpc" else None
    )
    run = await run_stream(agent.url, binding, long_running=True)
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    reception = run.evidence(ReceptionEvidence)
    assert reception is not None
    assert reception.note == "the stream ended before a final state; resubscribed (SubscribeToTask)"
    purposes = [ex.purpose for ex in run.exchanges]
    assert "resubscribe" in purposes and "poll" not in purposes


async def test_resubscribe_over_a2a_03_is_tasks_resubscribe(reference_agent: StartAgent) -> None:
    agent = reference_agent(fault="v03", drop_stream=True)
    run = await run_stream(agent.url, "jsonrpc")
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    [call] = [ex for ex in run.exchanges if ex.purpose == "resubscribe"]
    assert b'"method":"tasks/resubscribe"' in call.request_body


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
async def test_subscribing_to_a_finished_task_is_unsupported_operation(
    reference_agent: StartAgent, binding: str
) -> None:
    """A2A 1.0: SubscribeToTask on a task in a terminal state answers UnsupportedOperation
    (not the snapshot), in every binding; the client reads it as such."""
    agent = reference_agent(grpc_port=0 if binding == "grpc" else None)
    run = await run_appendix_b(
        Target(agent.url, skill_id="evaluate_resource_condition", binding=binding),
        ClientOptions(),
    )
    assert run.verdict.outcome is RunOutcome.PASSED and run.task is not None
    assert run.interface is not None
    async with A2AClient(ClientOptions()) as client:
        client.trust_card_origin(agent.url)
        with pytest.raises(A2AProtocolError) as refused:
            async for _event in client.subscribe(run.interface, run.task.id):
                pass
    assert unsupported_operation(refused.value), refused.value
    assert "terminal state" in str(refused.value)


def test_check_and_its_bug_report_say_the_stream_ended_early(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the wire shows (the stream closed early, then resubscribe or poll) is said in
    the text report and the Markdown bug report, not only in --json: step 9's message
    alone reads as if the stream carried the task to its end."""
    from sia_tui.cli import main

    agent = reference_agent(drop_stream=True)
    saved = tmp_path / "dropped.session.json"
    check = ["check", agent.url, "--skill", "evaluate_resource_condition", "--args", "example"]
    assert main([*check, "--mode", "stream", "--save", str(saved)]) == 0
    text = capsys.readouterr().out
    assert main(["report", str(saved)]) == 0
    report = capsys.readouterr().out
    said = "note: the stream ended before a final state"
    assert said in text.split(" 9. ")[1].split(" 10. ")[0]
    assert said in next(line for line in report.splitlines() if line.startswith("| 9 |"))
