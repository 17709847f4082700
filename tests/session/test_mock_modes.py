"""``sia-tui mock``: streams, polls, follow-ups, cancel, matching, the card, credentials.

Each test records a run from the reference agent on 127.0.0.1, stops the agent, serves
the session with the mock (an ephemeral port) and runs the client against the mock.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.agent.mock import RunningMock
from sia_tui.cli.parser import run as run_cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, StepStatus, Target
from sia_tui.core.run.turns import Reply
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.core.task_state import TaskState
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.mocks import counted_pauses, mock_config, saved, serve
from tests.support.sessions import record_live

SKILL = "evaluate_resource_condition"
LONG_SKILL = "check_link_capacity"
BEARER = "canary-mock-bearer-6c1d"


def _procedure(url: str, *, binding: str | None, mode: str, options: ClientOptions) -> Procedure:
    """Poll mode runs the long-running skill on its example, as the engine's tests do."""
    skill = LONG_SKILL if mode == "poll" else SKILL
    procedure = Procedure(Target(url, skill_id=skill, binding=binding, mode=mode), options)
    if mode == "poll":
        procedure.use_example()
    else:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    return procedure


async def _asked_and_answered(procedure: Procedure) -> Run:
    """Run until the task asks, reply, run on to the end."""
    try:
        await procedure.run_all()
        procedure.reply(Reply.text("north hall"))
        return await procedure.run_all()
    finally:
        await procedure.aclose()


def _answers(run: Run) -> list[tuple[str, int | None, tuple[bytes, ...]]]:
    """What the agent answered, exchange by exchange: purpose, status, stream events."""
    return [(ex.purpose, ex.status, ex.events) for ex in run.exchanges]


@pytest.mark.parametrize("mode", ["sync", "stream", "poll"])
@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
async def test_a_multi_turn_run_replays_against_the_mock_in_every_mode(
    reference_agent: StartAgent,
    mocks: list[RunningMock],
    tmp_path: Path,
    binding: str,
    mode: str,
) -> None:
    """The task asks, the reply goes on the same task, the result arrives: SSE events in
    the recorded order, the recorded polls, the follow-up matched by its task."""
    options = ClientOptions(poll_interval=0.02)
    grpc = {"grpc_port": 0} if binding == "grpc" else {}
    agent = reference_agent(ask="input", step_delay=0.05, **grpc)
    recorded = await _asked_and_answered(
        _procedure(agent.url, binding=binding, mode=mode, options=options)
    )
    assert recorded.verdict.outcome is RunOutcome.PASSED, recorded.verdict.summary
    session = saved(recorded, options, tmp_path)
    agent.stop()
    unmatched: list[str] = []
    mock = serve(mock_config(session, on_unmatched=unmatched.append), mocks)
    today = await _asked_and_answered(
        _procedure(mock.url, binding=binding, mode=mode, options=options)
    )
    assert unmatched == []
    assert [s.status for s in today.steps] == [StepStatus.PASSED] * 11, today.verdict.summary
    assert today.task is not None and recorded.task is not None
    assert today.task.id == recorded.task.id  # the recorded task, as recorded
    # Every answer the agent gave, the mock gave again, in order (a poll too many would
    # show as an extra GetTask; a stream's events in another order as different events).
    assert _answers(today) == _answers(recorded)


async def test_a_task_waiting_for_input_is_cancelled_against_the_mock(
    reference_agent: StartAgent, mocks: list[RunningMock], tmp_path: Path
) -> None:
    """CancelTask is answered with the recorded cancelled task: step 9 ends CANCELLED."""
    options = ClientOptions(poll_interval=0.02)
    agent = reference_agent(ask="input")

    async def asked_then_cancelled(url: str) -> Run:
        procedure = _procedure(url, binding=None, mode="poll", options=options)
        try:
            await procedure.run_all()
            task = await procedure.cancel()
            assert task is not None and task.state == TaskState.CANCELED
            return procedure.run
        finally:
            await procedure.aclose()

    recorded = await asked_then_cancelled(agent.url)
    session = saved(recorded, options, tmp_path)
    agent.stop()
    mock = serve(mock_config(session), mocks)
    today = await asked_then_cancelled(mock.url)
    assert (
        today.verdict.outcome is RunOutcome.CANCELLED
        and recorded.verdict.outcome is RunOutcome.CANCELLED
    )
    assert [ex.purpose for ex in today.exchanges] == [ex.purpose for ex in recorded.exchanges]


@pytest.fixture
async def valid_session(reference_agent: StartAgent, tmp_path: Path) -> Path:
    """A passed run of the Appendix B arguments with a bearer token, the agent stopped."""
    agent = reference_agent()
    options = ClientOptions(bearer=BEARER)
    run = await record_live(agent.url, options, arguments=APPENDIX_B_ARGUMENTS)
    assert run.verdict.outcome is RunOutcome.PASSED
    session = saved(run, options, tmp_path)
    agent.stop()
    return session


async def _check_other_arguments(url: str) -> Run:
    other = json.loads(json.dumps(APPENDIX_B_ARGUMENTS))
    other["condition"]["threshold"] = 81
    procedure = Procedure(Target(url, skill_id=SKILL), ClientOptions())
    procedure.set_arguments(other)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


async def test_other_arguments_get_an_a2a_error_listing_what_the_session_holds(
    valid_session: Path, mocks: list[RunningMock]
) -> None:
    """Exact matching: the client sees an A2A error at step 8 that names the recorded
    requests (describe_skill and the invocation, with their digests); the mock says it."""
    unmatched: list[str] = []
    mock = serve(mock_config(valid_session, on_unmatched=unmatched.append), mocks)
    run = await _check_other_arguments(mock.url)
    failed = run.failed_step
    assert failed is not None and failed.step == 8, run.verdict.summary
    assert "the session holds no answer to SendMessage skill evaluate_resource_condition" in (
        failed.message
    )
    [said] = unmatched
    assert "it holds:\n  GET /.well-known/agent-card.json" in said
    assert f"SendMessage skill {SKILL} arguments sha256:" in said
    assert "SendMessage skill describe_skill arguments sha256:" in said


async def test_loose_matching_answers_other_arguments_with_the_recorded_answer(
    valid_session: Path, mocks: list[RunningMock]
) -> None:
    """--match loose: method and skill only, so the recorded result comes back."""
    unmatched: list[str] = []
    mock = serve(mock_config(valid_session, loose=True, on_unmatched=unmatched.append), mocks)
    run = await _check_other_arguments(mock.url)
    assert unmatched == [] and run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary


async def test_the_card_points_at_the_mock_and_is_otherwise_the_recorded_bytes(
    valid_session: Path, mocks: list[RunningMock]
) -> None:
    mock = serve(mock_config(valid_session), mocks)
    recorded = json.loads(valid_session.read_text(encoding="utf-8"))
    recorded_card = recorded["exchanges"][0]["response"]["body"]["text"]
    served = httpx.get(mock.url + "/.well-known/agent-card.json").text
    card = json.loads(served)
    urls = [each["url"] for each in card["supportedInterfaces"]]
    assert urls == [mock.url + "/a2a/jsonrpc", mock.url + "/a2a/rest"]
    old_base = json.loads(recorded_card)["supportedInterfaces"][0]["url"].removesuffix(
        "/a2a/jsonrpc"
    )
    assert served == recorded_card.replace(old_base, mock.url)  # nothing else changed


async def test_require_auth_refuses_a_request_without_the_recorded_credentials(
    valid_session: Path, mocks: list[RunningMock]
) -> None:
    """Redacted in the session, so any value is accepted; none is refused with 401."""
    assert BEARER not in valid_session.read_text(encoding="utf-8")
    mock = serve(mock_config(valid_session, require_auth=True), mocks)
    url = mock.url + "/.well-known/agent-card.json"
    assert httpx.get(url).status_code == 401
    assert httpx.get(url, headers={"Authorization": "Bearer any"}).status_code == 200
    open_mock = serve(mock_config(valid_session), mocks)  # credentials not checked
    assert httpx.get(open_mock.url + "/.well-known/agent-card.json").status_code == 200


@pytest.mark.parametrize("binding", ["jsonrpc", "grpc"])
@pytest.mark.parametrize("kept_times", [True, False], ids=["event-times", "older-session"])
async def test_recorded_timing_waits_each_events_recorded_gap(
    reference_agent: StartAgent,
    mocks: list[RunningMock],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    binding: str,
    kept_times: bool,
) -> None:
    """--timing recorded: each stream event waits the gap after the one before it, as
    the session's event times say (SSE and gRPC alike); a session saved before event times
    were kept spreads the events evenly over the stream's duration. Fast (the default)
    waits for nothing."""
    grpc = {"grpc_port": 0} if binding == "grpc" else {}
    agent = reference_agent(**grpc)
    procedure = _procedure(agent.url, binding=binding, mode="stream", options=ClientOptions())
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    session = saved(run, ClientOptions(), tmp_path)
    agent.stop()
    [stream] = [ex for ex in run.exchanges if ex.events]
    assert len(stream.event_offsets_ms) == len(stream.events)
    if kept_times:
        times = [ms / 1000 for ms in stream.event_offsets_ms]
        expected = [b - a for a, b in zip([0.0, *times], times, strict=False)]
    else:  # as a file written before event times: the member is optional
        data = json.loads(session.read_text(encoding="utf-8"))
        for each in data["exchanges"]:
            each.pop("event_offsets_ms", None)
        session.write_text(json.dumps(data), encoding="utf-8")
        expected = [stream.elapsed_ms / 1000 / len(stream.events)] * len(stream.events)
    waits = counted_pauses(monkeypatch)
    for timing in ("fast", "recorded"):
        waits.clear()
        mock = serve(mock_config(session, timing=timing), mocks)
        live = _procedure(mock.url, binding=binding, mode="stream", options=ClientOptions())
        try:
            today = await live.run_all()
        finally:
            await live.aclose()
        assert today.verdict.outcome is RunOutcome.PASSED, today.verdict.summary
        if timing == "fast":
            assert waits == []
        else:  # the stream's waits, in order, among the other answers' own
            at = next(i for i, w in enumerate(waits) if w == pytest.approx(expected[0]))
            assert waits[at : at + len(expected)] == [pytest.approx(w) for w in expected], (
                waits,
                expected,
            )


def test_a_tampered_session_is_a_located_error(
    valid_session: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mock serves nothing from a file the session reader refuses: exit 2, located."""
    data: dict[str, Any] = json.loads(valid_session.read_text(encoding="utf-8"))
    data["exchanges"][1]["response"]["status"] = "two hundred"
    valid_session.write_text(json.dumps(data), encoding="utf-8")
    assert run_cli(["mock", str(valid_session)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sia-tui: error:") and "Traceback" not in err
    assert "at /exchanges/1/" in err, err


async def test_edited_answers_are_served_as_edited_and_never_crash_the_mock(
    valid_session: Path, mocks: list[RunningMock]
) -> None:
    """A card that is not JSON, a recorded duration of a year: the mock serves the bytes
    (and waits at most its bound), the client judges them; the mock goes on serving."""
    data: dict[str, Any] = json.loads(valid_session.read_text(encoding="utf-8"))
    data["exchanges"][0]["response"]["body"] = {"encoding": "utf-8", "text": "\u001b[31mnot"}
    data["exchanges"][0]["elapsed_ms"] = 365 * 24 * 3600 * 1000.0
    valid_session.write_text(json.dumps(data), encoding="utf-8")
    mock = serve(mock_config(valid_session), mocks)
    run = await _check_other_arguments(mock.url)
    failed = run.failed_step
    assert failed is not None and failed.step == 1, run.verdict.summary
    assert httpx.get(mock.url + "/.well-known/agent-card.json").text == "\u001b[31mnot"


def test_the_command_prints_its_address_and_each_unmatched_request(
    valid_session: Path,
) -> None:
    """`sia-tui mock SESSION`: the base URL on stdout's first line (port 0: a free one),
    127.0.0.1 by default; an unmatched request's error on stderr, the client's text shown
    literally (an escape sequence in a skill name is made visible, not run)."""
    import subprocess
    import sys

    program = str(Path(sys.executable).with_name("sia-tui"))
    process = subprocess.Popen(
        [program, "mock", str(valid_session)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url), url
        request = {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "SendMessage",
            "params": {"message": {"parts": [{"data": {"skill": "x\x1b[2Jy", "arguments": {}}}]}},
        }
        answer = httpx.post(url + "/a2a/jsonrpc", json=request, timeout=30).json()
        assert answer["id"] == 7 and answer["error"]["code"] == -32004
        assert "it holds:" in answer["error"]["message"]
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "the session holds no answer to SendMessage skill x" in err
    assert "\x1b" not in err and "it holds:\n  GET /.well-known/agent-card.json" in err


@pytest.mark.parametrize("jsonrpc", [True, False], ids=["jsonrpc", "http-json"])
async def test_the_extended_cards_interfaces_point_at_the_mock_too(
    reference_agent: StartAgent, mocks: list[RunningMock], tmp_path: Path, jsonrpc: bool
) -> None:
    """GetExtendedAgentCard is answered with the recorded extended card, its interfaces
    pointed at the mock as the public card's are (a client that switches to the extended
    card keeps talking to the mock, not to the recorded agent's address)."""
    from sia_tui.agent.config import AgentConfig
    from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET
    from sia_tui.core.a2a.extended_card import PURPOSE
    from sia_tui.core.a2a.options import OAuth2Settings

    agent = reference_agent(
        AgentConfig(oauth2=True, step_delay=0.01, bindings="jsonrpc" if jsonrpc else "http-json")
    )
    options = ClientOptions(oauth2=OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))
    run = await record_live(agent.url, options, arguments=APPENDIX_B_ARGUMENTS)
    [extended] = [ex for ex in run.exchanges if ex.purpose == PURPOSE]
    assert agent.url.encode() in extended.response_body
    session = saved(run, options, tmp_path)
    agent.stop()
    mock = serve(mock_config(session), mocks)
    path = extended.url.removeprefix(agent.url)
    async with httpx.AsyncClient() as client:
        answer = await client.request(
            extended.method, mock.url + path, content=extended.request_body
        )
    assert answer.status_code == 200, answer.text
    card = answer.json().get("result", answer.json())
    urls = [each["url"] for each in card["supportedInterfaces"]]
    assert urls and all(url.startswith(mock.url) for url in urls), urls
