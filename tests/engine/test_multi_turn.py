"""Multi-turn tasks against the reference agent: a task that stops in INPUT_REQUIRED or
AUTH_REQUIRED leaves the run incomplete with the agent's question, and the user's reply
continues the same task in every mode and binding (A2A 1.0 section 3.4.3, RULES INV11)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.run.turns import UNVALIDATED, PartKind, Reply
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.core.task_state import TaskState
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

SKILL = "evaluate_resource_condition"


def procedure_for(url: str, *, binding: str | None = None, mode: str | None = None) -> Procedure:
    """Poll mode runs the long-running skill (the one that declares it), on its example."""
    skill = "check_link_capacity" if mode == "poll" else SKILL
    procedure = Procedure(
        Target(url, skill_id=skill, binding=binding, mode=mode), ClientOptions(poll_interval=0.02)
    )
    if mode == "poll":
        procedure.use_example()
    else:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    return procedure


def follow_ups(run: Run) -> list[Any]:
    """The messages sent after the first invocation, as the agent received them."""
    sent = []
    for ex in run.exchanges:
        if ex.purpose == "reply":
            sent.append(json.loads(ex.request_body))
    return sent


async def test_a_task_that_asks_leaves_the_run_incomplete_with_its_question(
    reference_agent: StartAgent,
) -> None:
    """Not failed, not blamed on the agent: step 9 waits, the summary quotes the agent."""
    agent = reference_agent(ask="input")
    procedure = procedure_for(agent.url)
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.failed_step is None and run.verdict.at_fault is None
    assert run.verdict.outcome is RunOutcome.INCOMPLETE and run.verdict.outcome.exit_code == 3
    turn = run.verdict.open_turn
    assert turn is not None and turn.state == TaskState.INPUT_REQUIRED
    assert turn.question.startswith("Which site should the report name?")
    assert "the agent asks: Which site" in run.verdict.summary
    assert [s.status for s in run.steps[8:]] == [StepStatus.NOT_RUN] * 3


@pytest.mark.parametrize("mode", ["sync", "stream", "poll"])
@pytest.mark.parametrize("binding", ["jsonrpc", "http-json"])
async def test_a_reply_continues_the_same_task_to_a_valid_result(
    reference_agent: StartAgent, binding: str, mode: str
) -> None:
    """The reply names the task's id and context; the final result is validated as usual
    (steps 9-11 pass) and the turn is recorded with the reply unvalidated (INV11)."""
    agent = reference_agent(ask="input")
    procedure = procedure_for(agent.url, binding=binding, mode=mode)
    try:
        await procedure.run_all()
        asked = procedure.run.task
        assert asked is not None
        procedure.reply(Reply.text("north hall"))
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11, run.verdict.summary
    assert run.task is not None and run.task.id == asked.id
    [turn] = run.turns
    assert (turn.reply_kind, turn.reply) == (PartKind.TEXT, "north hall")
    assert turn.validation == UNVALIDATED
    assert turn.sent_at is not None
    [exchange] = [ex for ex in run.exchanges if ex.purpose == "reply"]
    assert exchange.seq in run.step(Step.RECEPTION).exchanges
    assert asked.id.encode() in exchange.request_body and b"north hall" in exchange.request_body


async def test_a_data_reply_is_one_data_part_not_checked_against_input_schema(
    reference_agent: StartAgent,
) -> None:
    """RULES INV11: a reply that would not validate against input_schema is still sent."""
    agent = reference_agent(ask="input")
    procedure = procedure_for(agent.url, binding="jsonrpc", mode="sync")
    try:
        await procedure.run_all()
        procedure.reply(Reply.data({"not": "the input schema"}))
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.verdict.outcome is RunOutcome.PASSED
    [message] = [body["params"]["message"] for body in follow_ups(run)]
    assert message["parts"] == [
        {"data": {"not": "the input schema"}, "mediaType": "application/json"}
    ]
    assert run.task is not None and message["taskId"] == run.task.id


async def test_auth_required_says_what_the_agent_needs_and_goes_on_after_the_reply(
    reference_agent: StartAgent,
) -> None:
    """AUTH_REQUIRED is the same reply turn: the run names it and the agent's message."""
    agent = reference_agent(ask="auth")
    procedure = procedure_for(agent.url, mode="stream")
    try:
        run = await procedure.run_all()
        assert run.verdict.open_turn is not None and run.verdict.open_turn.needs == "authorization"
        assert "waits for authorization (TASK_STATE_AUTH_REQUIRED)" in run.verdict.summary
        assert "approval code" in run.verdict.summary
        procedure.reply(Reply.text("code-1234"))
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.verdict.outcome is RunOutcome.PASSED


async def test_a_reply_when_nothing_waits_is_refused(reference_agent: StartAgent) -> None:
    agent = reference_agent()
    procedure = procedure_for(agent.url)
    try:
        await procedure.run_all()
        with pytest.raises(ValueError, match="does not wait"):
            procedure.reply(Reply.text("hello"))
    finally:
        await procedure.aclose()


@pytest.mark.parametrize("mode", ["sync", "stream"])
@pytest.mark.parametrize("over", ["a2a-0.3", "grpc"])
async def test_a_reply_over_a2a_03_and_grpc(
    reference_agent: StartAgent, over: str, mode: str
) -> None:
    """0.3 agents and the gRPC Message carry taskId and contextId the same way."""
    if over == "grpc":
        agent = reference_agent(ask="input", grpc_port=0)
    else:
        agent = reference_agent(fault="v03", ask="input")
    procedure = procedure_for(agent.url, binding="grpc" if over == "grpc" else None, mode=mode)
    try:
        await procedure.run_all()
        assert procedure.run.verdict.waiting_for_reply
        procedure.reply(Reply.text("north hall"))
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    assert len(run.turns) == 1 and run.turns[0].sent_at is not None


async def test_each_invocation_keeps_its_own_turns_in_a_session(
    reference_agent: StartAgent, tmp_path: Any
) -> None:
    """sia-session/6: an earlier invocation's answered turn and the last one's open
    question are both saved and read back with their own invocation."""
    from sia_tui.core.session import load_session, save_session

    agent = reference_agent(ask="input")
    procedure = procedure_for(agent.url)
    try:
        await procedure.run_replying([Reply.text("north hall")])
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        await procedure.run_all()
    finally:
        await procedure.aclose()
    path = tmp_path / "two.session.json"
    save_session(procedure.run, ClientOptions(), path)
    loaded = load_session(path).run
    [first] = loaded.past_invocations
    assert [t.reply for t in first.turns] == ["north hall"]
    assert first.verdict.outcome is RunOutcome.PASSED
    assert loaded.verdict.waiting_for_reply and loaded.verdict.open_turn is not None
    assert loaded.verdict.outcome is RunOutcome.INCOMPLETE


@pytest.mark.parametrize("mode", ["sync", "stream", "poll"])
async def test_a_task_waiting_for_input_can_be_cancelled(
    reference_agent: StartAgent, mode: str
) -> None:
    """An interrupted task has not ended: A2A lets its caller cancel it. The cancel is
    sent, and step 9 ends CANCELLED as asked (not failed, no question left open)."""
    agent = reference_agent(ask="input")
    procedure = Procedure(
        Target(agent.url, skill_id="check_link_capacity", mode=mode),
        ClientOptions(poll_interval=0.02),
    )
    procedure.use_example()
    try:
        run = await procedure.run_all()
        assert run.verdict.waiting_for_reply
        assert run.answers.cancellable, run.answers.cancel_refusal
        task = await procedure.cancel()
    finally:
        await procedure.aclose()
    assert task is not None and task.state == TaskState.CANCELED
    run = procedure.run
    assert run.step(Step.RECEPTION).status is StepStatus.CANCELLED
    assert run.verdict.open_turn is None and not run.verdict.waiting_for_reply
    assert run.verdict.outcome is RunOutcome.CANCELLED and run.verdict.at_fault is None
