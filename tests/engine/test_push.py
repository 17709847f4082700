"""Push notifications: a loopback receiver registered with the send records what the agent
pushes (token and task checked), and an agent that will not push says why while the run
goes on by its own mode."""

from __future__ import annotations

from typing import Any

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.run.push_log import LOOPBACK
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.core.task_state import TaskState
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

SKILL = "evaluate_resource_condition"


async def _run(
    url: str, *, push: str = LOOPBACK, mode: str | None = None, skill: str = SKILL
) -> Run:
    procedure = Procedure(Target(url, skill_id=skill, mode=mode, push=push), ClientOptions())
    try:
        await procedure.run_until(6)
        if skill == SKILL:
            procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        else:
            procedure.use_example()
        await procedure.run_all()
    finally:
        await procedure.aclose()
    return procedure.run


@pytest.mark.parametrize(
    ("mode", "skill"),
    [("sync", SKILL), ("stream", SKILL), ("poll", "check_link_capacity")],
)
async def test_deliveries_land_on_the_run_with_token_and_task_checked(
    reference_agent: StartAgent, mode: str, skill: str
) -> None:
    """The agent pushes each event of the task to the loopback URL with the run's token:
    every delivery is recorded with its state, token_ok and task_id_ok, the last one is the
    final state, and the run's verdict is the one its mode gives."""
    agent = reference_agent(push="on")
    run = await _run(agent.url, mode=mode, skill=skill)
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    assert run.push is not None and run.push.error is None and run.push.registered
    assert run.push.url is not None and run.push.url.startswith("http://127.0.0.1:")
    deliveries = run.push.deliveries
    assert deliveries, "no delivery recorded"
    assert all(d.token_ok and d.task_id_ok for d in deliveries)
    assert run.task is not None and {d.task_id for d in deliveries} == {run.task.id}
    assert deliveries[-1].task_state == TaskState.COMPLETED
    assert [d.number for d in deliveries] == list(range(1, len(deliveries) + 1))
    # The webhook went in the 1.0 member, with the token; nothing else was fetched.
    invoke = next(ex for ex in run.exchanges if ex.purpose == "invoke")
    assert b'"taskPushNotificationConfig"' in invoke.request_body


@pytest.mark.usefixtures("cli_wording")
async def test_an_agent_refusing_a_loopback_url_gives_push_error_and_the_run_goes_on(
    reference_agent: StartAgent,
) -> None:
    """The agent refuses 127.0.0.1 as the specification says it SHOULD: push.error explains
    it and names --push-url, the invocation is sent again without the webhook, and the run
    passes by its own mode; both sends are recorded."""
    agent = reference_agent(push="refuse-loopback")
    run = await _run(agent.url)
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    assert run.push is not None and not run.push.registered and run.push.deliveries == []
    assert run.push.error is not None
    assert "--push-url URL" in run.push.error and "Invalid push notification URL" in run.push.error
    invokes = [ex for ex in run.exchanges if ex.purpose == "invoke"]
    assert len(invokes) == 2
    assert b"taskPushNotificationConfig" in invokes[0].request_body
    assert b"taskPushNotificationConfig" not in invokes[1].request_body


async def test_a_card_without_push_capability_registers_nothing(
    reference_agent: StartAgent,
) -> None:
    """capabilities.pushNotifications is false: no webhook is sent (the agent would answer
    PushNotificationNotSupported), push.error says why, the run passes."""
    agent = reference_agent()
    run = await _run(agent.url)
    assert run.verdict.outcome is RunOutcome.PASSED
    assert run.push is not None and run.push.url is None
    assert run.push.error is not None and "capabilities.pushNotifications" in run.push.error
    invoke = next(ex for ex in run.exchanges if ex.purpose == "invoke")
    assert b"PushNotificationConfig" not in invoke.request_body


async def test_an_external_push_url_is_registered_and_deliveries_are_not_claimed(
    reference_agent: StartAgent,
) -> None:
    """--push-url: the agent gets the user's URL; sia-tui says it cannot see deliveries
    there and records none of its own."""
    agent = reference_agent(push="on")
    run = await _run(agent.url, push="http://127.0.0.1:9/hook")
    assert run.verdict.outcome is RunOutcome.PASSED
    assert run.push is not None and run.push.registered and not run.push.sees_deliveries
    assert run.push.url == "http://127.0.0.1:9/hook" and run.push.deliveries == []
    assert "cannot see them" in run.push.note


async def test_without_push_nothing_is_registered(reference_agent: StartAgent) -> None:
    """A run that did not ask for push has no push log and sends no webhook."""
    agent = reference_agent(push="on")
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions())
    try:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        await procedure.run_all()
    finally:
        await procedure.aclose()
    assert procedure.run.push is None
    invoke = next(ex for ex in procedure.run.exchanges if ex.purpose == "invoke")
    assert b"PushNotificationConfig" not in invoke.request_body


@pytest.mark.parametrize(("binding", "fault"), [("grpc", None), (None, "v03")])
async def test_push_over_grpc_and_a2a_0_3(
    reference_agent: StartAgent, binding: str | None, fault: str | None
) -> None:
    """gRPC carries the webhook in SendMessageConfiguration; a 0.3 agent reads
    pushNotificationConfig and pushes the Task itself: both are recorded and checked."""
    agent = reference_agent(push="on", grpc_port=0, fault=fault)
    procedure = Procedure(
        Target(agent.url, skill_id=SKILL, binding=binding, push=LOOPBACK), ClientOptions()
    )
    try:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        await procedure.run_all()
    finally:
        await procedure.aclose()
    run = procedure.run
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    assert run.push is not None and run.push.error is None and run.push.deliveries
    assert all(d.token_ok and d.task_id_ok for d in run.push.deliveries)
    assert run.push.deliveries[-1].task_state == TaskState.COMPLETED
    if fault == "v03":
        assert {d.kind for d in run.push.deliveries} == {"task"}
        invoke = next(ex for ex in run.exchanges if ex.purpose == "invoke")
        assert b'"pushNotificationConfig"' in invoke.request_body


async def test_a_push_not_supported_error_is_explained(reference_agent: StartAgent) -> None:
    """An agent whose card claims push but answers PushNotificationNotSupported: push.error
    quotes it and the run passes by its mode (the card is edited in transit)."""
    import httpx

    agent = reference_agent(push="off")
    real = httpx.AsyncHTTPTransport()

    class ClaimsPush(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await real.handle_async_request(request)
            if request.url.path.endswith("agent-card.json"):
                body = (await response.aread()).replace(
                    b'"pushNotifications": false', b'"pushNotifications": true'
                )
                return httpx.Response(
                    200, content=body, headers={"content-type": "application/json"}
                )
            return response

    procedure = Procedure(
        Target(agent.url, skill_id=SKILL, push=LOOPBACK), ClientOptions(), transport=ClaimsPush()
    )
    try:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        await procedure.run_all()
    finally:
        await procedure.aclose()
        await real.aclose()
    run = procedure.run
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    assert run.push is not None and run.push.error is not None
    assert "-32003" in run.push.error and "does not support push" in run.push.error
    assert "--push-url" not in run.push.error  # another URL would not help


def test_a_frozen_copy_keeps_the_deliveries_it_saw() -> None:
    """What a saving thread (or a past invocation) holds does not grow when the receiver
    records another delivery."""
    from sia_tui.core.a2a.push.receiver import Delivery
    from sia_tui.core.run.push_log import PushLog
    from sia_tui.core.run.read_model import frozen_copy

    run = Run(target=Target("http://127.0.0.1:9", push=LOOPBACK))
    run.push = PushLog(receiver=LOOPBACK)
    copy = frozen_copy(run)
    run.push.deliveries.append(Delivery(1, "", 0.0, 2, True, True))
    assert copy.push is not None and copy.push.deliveries == []


@pytest.mark.parametrize(
    ("error", "sends"),
    [
        (
            A2AProtocolError(
                "A2A JSON-RPC error -32602: Invalid push notification URL", code=-32602
            ),
            2,
        ),
        (A2AProtocolError("task has no 'status' member"), 1),
    ],
)
async def test_only_an_error_answer_is_sent_again_without_the_webhook(
    error: A2AProtocolError, sends: int
) -> None:
    """An agent's error answer made no task: the send goes again without the webhook. An
    answer that cannot be read may have made one: it is never sent twice."""
    from sia_tui.core.engine.push import PushChannel

    calls: list[dict[str, Any] | None] = []

    async def attempt(push: dict[str, Any] | None) -> str:
        calls.append(push)
        if push is not None:
            raise error
        return "sent"

    channel = PushChannel.open("http://127.0.0.1:9/hook", None, ClientOptions(), lambda: None)
    if sends == 2:
        assert await channel.send(attempt) == "sent"
        assert calls[1] is None and channel.log.error is not None
    else:
        with pytest.raises(A2AProtocolError):
            await channel.send(attempt)
        assert channel.log.error is None
    assert len(calls) == sends
