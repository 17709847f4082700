"""A gRPC agent that streams tiny status messages without end: the run's deadline ends the
check, the exchange keeps a bounded number of messages and counts the rest (as an HTTP
event stream's are), and a replay of the saved session reaches the recorded verdict."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.grpc_server import GrpcAgent
from sia_tui.agent.serving import start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bugreport.report_html import render_html
from sia_tui.core.engine.report_json import evidence_to_json
from sia_tui.core.errors import DeadlineExceeded
from sia_tui.core.limits import MAX_STREAM_EVENTS_KEPT
from sia_tui.core.run.later_evidence import ReceptionEvidence
from sia_tui.core.run.read_model import Run, StepStatus, Target
from sia_tui.core.session import har_of_run, load_session, save_session
from sia_tui.core.session.replay import replay_session
from tests.support.appendix_b import run_appendix_b

#: Long enough for steps 1-8 on a loaded machine; the flood fills what is left.
DEADLINE = 8.0
#: Messages sent as fast as the pacing allows: twice what an exchange keeps.
BURST = 2 * MAX_STREAM_EVENTS_KEPT
#: Then one message every TRICKLE seconds until the deadline: messages still arrive when it
#: passes (the deadline must end a stream that never goes quiet, not only a silent one).
TRICKLE = 0.02


async def _flood(self: GrpcAgent, params: Any) -> AsyncIterator[dict[str, Any]]:
    """The task as accepted, then WORKING again and again (about 90 bytes a message),
    never a final state; paced so that the size limit is not what ends it.

    A burst of BURST messages, then a trickle: each message costs both ends about 0.6 ms of
    CPU, and an unbroken flood until the 8 s deadline (about 10,000 messages) cost 7 s of
    CPU for the same verdicts. A stream's per-message cost is test_stream_flood's."""
    events: Any = self.service.stream(params, self.agent.starting(params))  # a generator
    first = await anext(events)
    await events.aclose()  # the task is never run: only the flood follows
    task = first["task"]
    yield first
    update = {
        "statusUpdate": {
            "taskId": task["id"],
            "contextId": task["contextId"],
            "status": {"state": "TASK_STATE_WORKING"},
        }
    }
    for sent in range(1, BURST + 1):
        yield update
        if sent % 10 == 0:
            await asyncio.sleep(0.001)
    while True:
        yield update
        await asyncio.sleep(TRICKLE)


async def _record(url: str, options: ClientOptions) -> Run:
    target = Target(url, "evaluate_resource_condition", binding="grpc", mode="stream")
    return await run_appendix_b(target, options)


@pytest.fixture(scope="module")
def flooded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Run, Path]]:
    """A stream-mode check of an agent that floods its gRPC stream, saved; recorded once for
    the module (the flood keeps both ends busy until the deadline): its tests only read the
    run and the file."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(GrpcAgent, "stream", _flood)
        agent = start_agent(AgentConfig(step_delay=0.05, grpc_port=0))
        try:
            options = ClientOptions(deadline=DEADLINE)
            run = asyncio.run(_record(agent.url, options))
        finally:
            agent.stop()
    path = tmp_path_factory.mktemp("flood") / "flood.session.json"
    save_session(run, options, path)
    yield run, path


async def test_the_deadline_ends_a_grpc_stream_of_tiny_messages(flooded: tuple[Run, Path]) -> None:
    """Step 9 fails with the deadline's verdict (not the size limit, not a hang), and the
    stream's exchange keeps the bounded number of messages, counting the rest."""
    run, _ = flooded
    failed = run.failed_step
    assert failed is not None and failed.step == 9, [(s.step, s.status) for s in run.steps]
    assert failed.error_kind == DeadlineExceeded.kind, failed.message
    assert f"deadline of {DEADLINE:g} s passed" in failed.message
    stream = next(ex for ex in run.exchanges if ex.url.endswith("/SendStreamingMessage"))
    assert len(stream.events) == MAX_STREAM_EVENTS_KEPT
    assert stream.events_not_kept > 0
    assert len(stream.message_sizes) == 1 + MAX_STREAM_EVENTS_KEPT  # the request, then each
    evidence = run.evidence(ReceptionEvidence)
    assert evidence is not None and evidence.stream_events_not_kept == stream.events_not_kept
    printed = evidence_to_json(run.steps[8].evidence)  # what ``check --json`` prints
    assert printed is not None and printed["stream_events_not_kept"] == stream.events_not_kept


async def test_the_saved_flood_is_bounded_and_counted(flooded: tuple[Run, Path]) -> None:
    """The session holds the kept messages and says how many more there were, in the
    exchange and in step 9's evidence (what ``--json`` prints too)."""
    run, path = flooded
    document = json.loads(path.read_text(encoding="utf-8"))
    stream = next(ex for ex in document["exchanges"] if ex["url"].endswith("/SendStreamingMessage"))
    assert len(stream["events"]) == MAX_STREAM_EVENTS_KEPT
    assert stream["events_not_kept"] == run.exchanges[stream["seq"] - 1].events_not_kept > 0
    loaded = load_session(path)
    assert loaded.manifest_ok
    again = next(ex for ex in loaded.run.exchanges if ex.seq == stream["seq"])
    assert again.events_not_kept == stream["events_not_kept"]


async def test_replay_of_the_flood_gives_the_recorded_verdict(flooded: tuple[Run, Path]) -> None:
    """Replayed offline, the kept messages are served and the stream ends as the deadline
    ended it live: the same step fails with the same verdict."""
    run, path = flooded
    result = await replay_session(load_session(path))
    replayed = result.results[0]
    assert result.same, replayed.changes
    assert replayed.run.verdict.outcome == run.verdict.outcome
    failed = replayed.run.failed_step
    assert failed is not None and failed.step == 9
    assert failed.error_kind == DeadlineExceeded.kind, failed.message
    assert replayed.run.steps[8].status == StepStatus.FAILED
    stream = next(ex for ex in run.exchanges if ex.url.endswith("/SendStreamingMessage"))
    assert f"{stream.events_not_kept} gRPC stream messages were counted, not kept" in str(
        replayed.notes
    )


async def test_the_reports_of_the_flood_are_bounded_and_say_how_many_more(
    flooded: tuple[Run, Path],
) -> None:
    """The HTML bug report quotes the kept messages and says how many more there were;
    the HAR says it in the stream's response comment (it once held all 83,000)."""
    run, path = flooded
    session = load_session(path)
    stream = next(ex for ex in session.run.exchanges if ex.url.endswith("/SendStreamingMessage"))
    html = render_html(session, path.name)
    assert f"{stream.events_not_kept} more events (counted, not kept)" in html
    har = json.loads(har_of_run(run, ClientOptions(deadline=DEADLINE)))
    (entry,) = [e for e in har["log"]["entries"] if e["request"]["url"] == stream.url]
    assert entry["response"]["comment"].startswith(f"{stream.events_not_kept} stream events")
    assert entry["response"]["content"]["text"].count("\n") == MAX_STREAM_EVENTS_KEPT - 1
