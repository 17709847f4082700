"""Replay of a session whose task was cancelled: who cancelled it is replayed, not guessed.

The user cancelled check_link_capacity while it streamed (the TUI's ``x``): the live run
said "cancelled as you asked"; ``sia-tui replay`` used to say "FAILED at step 9: the agent
cancelled ... although nobody asked it to", blaming the agent for what the user did. The
replay now sends the user's cancel again through the engine, where the recording has it
(RULES CP9: step 9 grades the task's status as it did live).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import httpx
import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.exchange import Exchange
from sia_tui.core.run.read_model import Run, Step, StepStatus
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import ReplayTransport, replay_session
from tests.support.agent_wire import V1
from tests.support.agents import StartAgent
from tests.support.cancelled_stream import stream_until_a_record
from tests.support.sessions import run_session_cli


def _statuses(run: Run) -> list[str]:
    return [step.status.value for step in run.steps[Step.RECEPTION - 1 :]]


async def _user_cancels(procedure: Procedure) -> None:
    await procedure.cancel()  # what the TUI's `x` calls


def _saved(run: Run, path: Path) -> Path:
    save_session(run, ClientOptions(), path)
    return path


def test_replaying_a_user_cancelled_stream_says_cancelled_by_the_user(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Replayed, the session says what the live run said: cancelled as asked, steps 10-11
    not run, nobody at fault, the same diagnosis; ``sia-tui replay`` does not say FAILED."""
    agent = reference_agent(step_delay=1.0)
    live = asyncio.run(stream_until_a_record(agent.url, _user_cancels))
    assert _statuses(live) == ["cancelled", "skipped", "skipped"]
    path = _saved(live, tmp_path / "user-cancelled.session.json")
    agent.stop()  # from here on nothing answers at the recorded URLs

    [result] = asyncio.run(replay_session(load_session(path))).results
    today = result.run
    assert result.changes == [], result.changes
    assert _statuses(today) == ["cancelled", "skipped", "skipped"]
    assert today.verdict.outcome.value == "cancelled"
    assert today.verdict.at_fault is None
    assert "cancelled as asked" in today.verdict.headline
    assert result.unmatched == []

    code = run_session_cli(["replay", str(path)])
    out = capsys.readouterr().out
    assert "FAILED" not in out and "nobody asked it to" not in out, out
    assert "cancelled as asked" in out
    assert code != 0  # cancelled: steps 10-11 not run, never 'passed'


class CancelAnsweredLate(httpx.AsyncBaseTransport):
    """Real HTTP, but the answer to CancelTask reaches the client only once step 9 has
    ended (the agent ends the stream with CANCELED before it answers: a race, forced)."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.procedure: Procedure | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        if b'"CancelTask"' in request.content and self.procedure is not None:
            reception = self.procedure.run.step(Step.RECEPTION)
            while reception.status in (StepStatus.RUNNING, StepStatus.NOT_RUN):
                await asyncio.sleep(0.01)
                reception = self.procedure.run.step(Step.RECEPTION)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


async def test_a_cancel_answered_after_step_9_ended_is_still_step_9s(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The CancelTask exchange lands in step 9 even when its answer arrives after step 9
    ended (it used to land in no step: replay then had no cancel to send, and blamed the
    agent); the saved session replays as cancelled by the user."""
    agent = reference_agent(step_delay=1.0)
    late = CancelAnsweredLate()

    async def user_cancels(procedure: Procedure) -> None:
        late.procedure = procedure
        await procedure.cancel()

    live = await stream_until_a_record(agent.url, user_cancels, transport=late)
    assert _statuses(live) == ["cancelled", "skipped", "skipped"]
    reception = live.step(Step.RECEPTION).exchanges
    assert [ex.purpose for ex in live.exchanges if ex.seq in reception].count("cancel") == 1
    path = _saved(live, tmp_path / "late-cancel.session.json")
    agent.stop()

    [result] = (await replay_session(load_session(path))).results
    assert result.changes == [], result.changes
    assert result.run.verdict.at_fault is None


async def test_replaying_a_cancel_nobody_asked_for_still_blames_the_agent(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The task is cancelled behind the run's back (another client's CancelTask): live and
    replayed, step 9 fails with the agent at fault; the user's cancel is never assumed."""
    agent = reference_agent(step_delay=1.0)

    async def someone_else_cancels(procedure: Procedure) -> None:
        task = procedure.run.task
        assert task is not None
        body = {"jsonrpc": "2.0", "id": 99, "method": "CancelTask", "params": {"id": task.id}}
        async with httpx.AsyncClient() as other:
            answer = await other.post(f"{agent.url}/a2a/jsonrpc", json=body, headers=V1)
        assert answer.status_code == 200, answer.text

    live = await stream_until_a_record(agent.url, someone_else_cancels)
    assert _statuses(live)[0] == "failed"
    path = _saved(live, tmp_path / "agent-cancelled.session.json")
    agent.stop()

    [result] = (await replay_session(load_session(path))).results
    today = result.run
    assert result.changes == [], result.changes
    failed = today.failed_step
    assert failed is not None and failed.step == Step.RECEPTION
    assert "although nobody asked it to" in failed.message
    blame = today.verdict.at_fault
    assert blame is not None and blame.party.value == "agent"
    report = json.loads(json.dumps(result.to_json()))
    assert report["outcome"] == "failed" and report["at_fault"]["party"] == "agent"


async def test_replay_answers_requests_in_the_order_they_were_sent() -> None:
    """A cancel sent while a stream is open can end (and be numbered) before the stream:
    replay answers each request with the exchange sent first, not the one that ended first
    (else the stream's request got the cancel's answer)."""
    url = "http://agent.test/a2a/jsonrpc"
    stream = Exchange(
        seq=2, purpose="invoke", method="POST", url=url, request_headers=(),
        request_body=b"", status=200, response_body=b"stream", started_at=10.0,
    )  # fmt: skip
    cancel = dataclasses.replace(
        stream, seq=1, purpose="cancel", response_body=b"cancel", started_at=11.0
    )
    transport = ReplayTransport([cancel, stream])
    async with httpx.AsyncClient(transport=transport) as client:
        first = await client.post(url)
        second = await client.post(url)
    assert (first.content, second.content) == (b"stream", b"cancel")
