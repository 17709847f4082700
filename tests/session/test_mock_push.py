"""``sia-tui mock`` of a session recorded with push notifications.

The recorded deliveries go to the webhook the live client registers now (with its token,
never the file's), in order; ``check --push`` against the mock gives ``replay``'s verdict
and the recorded push timeline, on every binding. A webhook on an origin the user did
not allow (loopback only, unless ``--push-to``) is refused as an agent refuses an
unusable push config, and printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.agent.faults import Fault
from sia_tui.agent.mock import RunningMock, recording
from sia_tui.agent.mock.push import refusal
from sia_tui.cli.parser import run as run_cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.push.receiver import PushReceiver
from sia_tui.core.run.push_log import LOOPBACK
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session import load_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, run_appendix_b
from tests.support.mocks import check_agrees_with_replay, counted_pauses, mock_config, saved, serve

SKILL = "evaluate_resource_condition"
#: Push sessions: the agent pushes, or refuses sia-tui's loopback webhook (A2A 1.0 section
#: 13.2); the faults that change what is pushed (0.3 states in 1.0 deliveries, a 0.3
#: agent posting the Task itself) or how the task ends.
PUSH_CASES = [
    pytest.param(push, fault, binding, mode, id=f"{push}-{fault or 'none'}-{binding}-{mode}")
    for push in ("on", "refuse-loopback")
    for fault in (None, Fault.WIRE_V03_STATE, Fault.V03, Fault.ARGS_EXECUTION_FAILED)
    for binding in ("jsonrpc", "http-json", "grpc")
    for mode in ("sync", "stream")
    if (fault is not Fault.V03 or binding == "jsonrpc")
    and (mode == "sync" or fault is None)
    and (push == "on" or fault is None)
]


async def _recorded(agent_url: str, binding: str, mode: str) -> Run:
    target = Target(agent_url, SKILL, binding=binding, mode=mode, push=LOOPBACK)
    return await run_appendix_b(target, ClientOptions())


def _timeline(push: dict[str, Any] | None) -> Any:
    """What a user reads of the push timeline (the receiver's URL and times aside)."""
    if push is None:
        return None
    keys = ("kind", "task_id", "task_state", "token_ok", "task_id_ok", "size", "problem")
    return (
        push["registered"],
        push["error"] is None,
        [tuple(d[k] for k in keys) for d in push["deliveries"]],
        push["refused_count"],
    )


def _pushed_wire(report: dict[str, Any]) -> list[tuple[int, int, int]]:
    return [(d["number"], d["errors"], d["warnings"]) for d in report["push_deliveries"]]


@pytest.mark.slow
@pytest.mark.parametrize(("push", "fault", "binding", "mode"), PUSH_CASES)
async def test_check_push_against_the_mock_agrees_with_replay_and_the_recording(
    push: str,
    fault: Fault | None,
    binding: str,
    mode: str,
    reference_agent: StartAgent,
    mocks: list[RunningMock],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`check --push` against the mock: replay's verdict, and the recorded deliveries
    (kind, task, state, token and task checks, size, and their wire verdicts)."""
    grpc = {"grpc_port": 0} if binding == "grpc" else {}
    bindings = {} if binding == "grpc" else {"bindings": binding}
    agent = reference_agent(push=push, fault=fault, **grpc, **bindings)
    run = await _recorded(agent.url, binding, mode)
    session = saved(run, ClientOptions(), tmp_path)
    agent.stop()  # from here on only the mock answers
    recorded = load_session(session).run
    assert recorded.push is not None
    assert bool(recorded.push.deliveries) == (push == "on")

    flags = ["--binding", binding, "--mode", mode, "--push"]
    checked, _ = await check_agrees_with_replay(session, mocks, capsys, flags, APPENDIX_B_ARGUMENTS)
    from sia_tui.core.engine.push import push_to_json

    assert _timeline(checked["push"]) == _timeline(push_to_json(recorded.push))
    assert _pushed_wire(checked["wire"]) == _pushed_wire(recorded.answers.wire.to_json())


@pytest.fixture
async def push_session(reference_agent: StartAgent, tmp_path: Path) -> Path:
    """A JSON-RPC sync run whose agent pushed four deliveries to sia-tui's receiver."""
    agent = reference_agent(push="on", bindings="jsonrpc")
    run = await _recorded(agent.url, "jsonrpc", "sync")
    assert run.push is not None and len(run.push.deliveries) == 4
    path = saved(run, ClientOptions(), tmp_path)
    agent.stop()
    return path


def _request(session: Path, config: dict[str, Any] | None) -> dict[str, Any]:
    """The recorded invoke's JSON-RPC body, its push config replaced by ``config``."""
    data = json.loads(session.read_text(encoding="utf-8"))
    [invoke] = [ex for ex in data["exchanges"] if ex["purpose"] == "invoke"]
    body: dict[str, Any] = json.loads(invoke["request"]["body"]["text"])
    body["params"].pop("configuration", None)
    if config is not None:
        body["params"]["configuration"] = {"taskPushNotificationConfig": config}
    return body


async def _receiver(token: str) -> PushReceiver:
    receiver = PushReceiver(token=token, max_body_bytes=1 << 20)
    await receiver.start()
    return receiver


async def test_deliveries_go_to_the_live_webhook_with_the_live_token(
    push_session: Path, mocks: list[RunningMock]
) -> None:
    """Never the URL nor the token the session names: the file grants nothing. The live
    config's authentication goes in Authorization, as an agent's sender puts it."""
    recorded = load_session(push_session).run
    assert recorded.push is not None
    receiver = await _receiver("live-token-8f2e")
    mock = serve(mock_config(push_session), mocks)
    config = {
        "url": receiver.url,
        "token": "live-token-8f2e",
        "authentication": {"scheme": "Bearer", "credentials": "live-credential"},
    }
    try:
        async with httpx.AsyncClient() as client:
            answer = await client.post(
                mock.url + "/a2a/jsonrpc", json=_request(push_session, config)
            )
        assert answer.status_code == 200 and "result" in answer.json()
        assert await receiver.wait_for(lambda d: d.task_state == "TASK_STATE_COMPLETED", 20)
    finally:
        await receiver.stop()
    # Each carried the live token (the receiver refuses any other, the recorded one too).
    assert [d.token_ok for d in receiver.deliveries] == [True] * 4
    assert receiver.refused_count == 0
    assert [d.body for d in receiver.deliveries] == [d.body for d in recorded.push.deliveries]


async def test_a_webhook_the_user_did_not_allow_is_refused_and_printed(
    push_session: Path, mocks: list[RunningMock]
) -> None:
    """RULES SR7's spirit: the mock posts nowhere the person running it did not allow.
    A non-loopback webhook gets InvalidParams (-32602, as an agent that screens push URLs
    answers), the text is printed, and the recorded answer stays for the next request."""
    printed: list[str] = []
    mock = serve(mock_config(push_session, on_push_refused=printed.append), mocks)
    elsewhere = {"url": "http://192.0.2.7:8080/hook", "token": "t"}
    async with httpx.AsyncClient() as client:
        refused = await client.post(
            mock.url + "/a2a/jsonrpc", json=_request(push_session, elsewhere)
        )
        again = await client.post(mock.url + "/a2a/jsonrpc", json=_request(push_session, None))
    assert refused.json()["error"]["code"] == -32602, refused.text
    assert "Invalid push notification URL" in refused.json()["error"]["message"]
    assert len(printed) == 1 and "http://192.0.2.7:8080/hook" in printed[0], printed
    assert "--push-to" in printed[0]
    assert "result" in again.json(), again.text  # the recorded answer was not used up


def test_push_to_allows_an_origin_and_nothing_else() -> None:
    """``--push-to`` names an origin: that one is allowed, its neighbours are not;
    loopback always is."""
    allowed = frozenset({"https://hooks.example:443"})
    assert refusal("https://hooks.example/a2a/push", allowed) is None
    assert refusal("https://hooks.example:8443/a2a/push", allowed) is not None
    assert refusal("http://hooks.example/a2a/push", allowed) is not None
    assert refusal("https://other.example/a2a/push", allowed) is not None
    assert refusal("http://127.0.0.1:9/a2a/push", frozenset()) is None
    assert refusal("http://[::1]:9/a2a/push", frozenset()) is None
    assert refusal("file:///etc/passwd", allowed) is not None


def test_a_push_to_that_is_no_origin_is_refused(
    push_session: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["mock", str(push_session), "--push-to", "ftp://x.example"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sia-tui: error: --push-to 'ftp://x.example'"), err


async def test_recorded_timing_waits_for_each_delivery(
    push_session: Path, mocks: list[RunningMock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--timing recorded: each delivery waits its recorded arrival after the send began
    (from the session's delivery times); fast (the default) waits for none."""
    [invoke] = [ex for ex in load_session(push_session).run.exchanges if ex.purpose == "invoke"]
    gaps = [at for at, _, _ in recording(load_session(push_session)).pushes[invoke.seq].deliveries]
    waits = counted_pauses(monkeypatch)
    for timing in ("fast", "recorded"):
        waits.clear()
        receiver = await _receiver("tok")
        mock = serve(mock_config(push_session, timing=timing), mocks)
        try:
            body = _request(push_session, {"url": receiver.url, "token": "tok"})
            async with httpx.AsyncClient() as client:
                await client.post(mock.url + "/a2a/jsonrpc", json=body)
            assert await receiver.wait_for(lambda d: d.task_state == "TASK_STATE_COMPLETED", 20)
        finally:
            await receiver.stop()
        assert len(receiver.deliveries) == 4
        if timing == "fast":
            assert waits == []
        else:  # each delivery waits its gap after the one before (the answer its own)
            expected = [b - a for a, b in zip([0.0, *gaps], gaps, strict=False) if b > a]
            assert expected and all(w in waits for w in map(pytest.approx, expected)), waits


@pytest.mark.parametrize(
    "body",
    [
        {  # JSON-RPC 1.0 send, inline
            "jsonrpc": "2.0",
            "method": "SendMessage",
            "params": {
                "message": {},
                "configuration": {"taskPushNotificationConfig": {"url": "U", "token": "T"}},
            },
        },
        {  # HTTP+JSON and gRPC (ProtoJSON): the request itself; 0.3's member name
            "message": {},
            "configuration": {"pushNotificationConfig": {"url": "U", "token": "T"}},
        },
        {  # CreateTaskPushNotificationConfig: the request is the config
            "jsonrpc": "2.0",
            "method": "CreateTaskPushNotificationConfig",
            "params": {"taskId": "t1", "url": "U", "token": "T"},
        },
        {  # 0.3's tasks/pushNotificationConfig/set
            "jsonrpc": "2.0",
            "method": "tasks/pushNotificationConfig/set",
            "params": {"taskId": "t1", "pushNotificationConfig": {"url": "U", "token": "T"}},
        },
    ],
    ids=["inline-jsonrpc", "inline-v03-rest", "create-config", "v03-set-config"],
)
def test_the_live_webhook_is_read_from_every_way_of_registering_it(body: dict[str, Any]) -> None:
    from sia_tui.agent.mock.push import Webhook, webhook_in

    assert webhook_in(body) == Webhook("U", "T")


def test_a_send_without_a_webhook_registers_none() -> None:
    from sia_tui.agent.mock.push import webhook_in

    assert webhook_in({"message": {"parts": []}, "configuration": {}}) is None
    assert webhook_in({"jsonrpc": "2.0", "method": "GetTask", "params": {"id": "t"}}) is None


@pytest.mark.parametrize("binding", ["http-json", "grpc"])
async def test_a_webhook_the_user_did_not_allow_is_refused_on_every_binding(
    binding: str, reference_agent: StartAgent, mocks: list[RunningMock], tmp_path: Path
) -> None:
    """The same refusal over HTTP+JSON (400) and gRPC (INVALID_ARGUMENT) as over JSON-RPC:
    sia-tui's client registers a webhook elsewhere (``--push-url``) with the mock of a push
    session, and the mock posts nothing there, says so, and the run shows the refusal."""
    grpc = {"grpc_port": 0} if binding == "grpc" else {"bindings": binding}
    agent = reference_agent(push="on", **grpc)
    session = saved(await _recorded(agent.url, binding, "sync"), ClientOptions(), tmp_path)
    agent.stop()
    printed: list[str] = []
    mock = serve(mock_config(session, on_push_refused=printed.append), mocks)
    elsewhere = "http://192.0.2.7:8080/hook"
    target = Target(mock.url, SKILL, binding=binding, mode="sync", push=elsewhere)
    run = await run_appendix_b(target, ClientOptions())
    assert len(printed) == 1 and elsewhere in printed[0], printed
    assert run.push is not None and not run.push.deliveries
    # As the binding says InvalidParams; the invocation is sent again without push.
    said = {
        "http-json": "A2A HTTP error 400 INVALID_ARGUMENT",
        "grpc": "gRPC error INVALID_ARGUMENT",
    }
    assert run.push.error is not None and said[binding] in run.push.error, run.push.error
    assert "Invalid push notification URL" in run.push.error
    assert run.verdict.outcome.value == "passed"
