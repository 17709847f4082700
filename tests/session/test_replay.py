"""Replay: today's code on the recorded bytes, with no network; verdict changes are found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import Run, StepStatus
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import ReplayTransport, replay_session, request_key
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import record_live, run_session_cli

BEARER = "canary-replay-bearer-31f7"


@pytest.fixture
async def digest_card_session(reference_agent: StartAgent, tmp_path: Path) -> Path:
    """A session recorded over real HTTP from the reference agent's digest-card fault."""
    agent = reference_agent(fault="digest-card")
    run = await record_live(agent.url, ClientOptions(bearer=BEARER))
    assert run.failed_step is not None and run.failed_step.step == 4
    path = tmp_path / "digest-card.session.json"
    save_session(run, ClientOptions(bearer=BEARER), path)
    agent.stop()  # from here on, nothing answers at the recorded URLs
    return path


async def test_replay_reproduces_step_4_without_network(digest_card_session: Path) -> None:
    session = load_session(digest_card_session)
    [result] = (await replay_session(session)).results
    assert result.same and result.unmatched == []
    failed = result.run.failed_step
    assert failed is not None and (failed.step, failed.code) == (4, "interface_invalid")
    recorded = {request_key(ex.method, ex.url) for ex in session.run.exchanges}
    assert result.requested
    assert {tuple(r.split(" ", 1)) for r in result.requested} <= recorded


def test_an_edited_body_changes_the_verdict(
    digest_card_session: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(digest_card_session.read_text(encoding="utf-8"))
    run = data["run"]
    card = data["exchanges"][0]["response"]["body"]
    # Fix the card's advertisement: today's step 4 must now pass.
    card["text"] = card["text"].replace(run["digests"]["advertised"], run["digests"]["returned"])
    digest_card_session.write_text(json.dumps(data), encoding="utf-8")
    assert run_session_cli(["replay", str(digest_card_session)]) == 1
    out = capsys.readouterr().out
    assert "does not match the manifest" in out
    assert (
        "step 4 Check the interface digest three ways: recorded failed (interface_invalid, "
        "local; at fault: agent), today passed" in out
    )


def test_replay_json_and_exit_codes(
    digest_card_session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As recorded (same), and the recorded run failed: the status is the verdict's, 1.
    assert run_session_cli(["replay", str(digest_card_session), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["same"] is True and report["invocations"][0]["steps"][3]["status"] == "failed"
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sia-session/1"', encoding="utf-8")
    assert run_session_cli(["replay", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sia-tui: error:") and "Traceback" not in err


async def test_replay_transport_refuses_unrecorded_requests() -> None:
    import httpx

    transport = ReplayTransport([])
    async with httpx.AsyncClient(transport=transport) as client:
        with pytest.raises(httpx.ConnectError, match="no recorded response"):
            await client.get("http://127.0.0.1:9/x")
    assert transport.unmatched == ["GET http://127.0.0.1:9/x"]


def test_replayed_run_is_displayable(digest_card_session: Path) -> None:
    """The loaded run has what the read-only screens need: card, interface, digests, steps."""
    run = load_session(digest_card_session).run
    assert run.card is not None and run.card.schema_interface is not None
    assert run.interface is not None and run.interface.callable
    assert run.steps[0].status is StepStatus.PASSED and run.steps[0].exchanges == [1]


async def test_replay_of_a_streamed_full_run(reference_agent: StartAgent, tmp_path: Path) -> None:
    """All eleven steps, the invocation streamed over SSE, replayed from the recorded bytes."""
    agent = reference_agent()
    run = await record_live(
        agent.url, ClientOptions(), arguments=APPENDIX_B_ARGUMENTS, mode="stream"
    )
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11
    path = tmp_path / "stream.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    loaded = load_session(path).run
    [result] = (await replay_session(load_session(path))).results
    assert result.same and result.unmatched == []
    assert result.run.result is not None
    assert result.run.result.data_parts()[0]["result"] == "condition_not_met"
    # The stream SendStreamingMessage opened is step 8's (sent) and step 9's (read on), in
    # the file and in the replay; no stream is open in either.
    for each in (loaded, result.run):
        assert each.steps[7].exchanges == each.steps[8].exchanges != []
        assert each.stream_steps == []
    assert '"stream_steps"' not in path.read_text(encoding="utf-8")


async def test_replay_of_a_card_read_from_a_file(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The card file need not exist any more: its recorded bytes are served again."""
    import httpx

    agent = reference_agent(fault="digest-card")
    async with httpx.AsyncClient() as client:
        card = (await client.get(agent.url + "/.well-known/agent-card.json")).content
    card_file = tmp_path / "vendor-card.json"
    card_file.write_bytes(card)
    run = await record_live(str(card_file), ClientOptions())
    assert run.exchanges[0].method == "FILE"
    path = tmp_path / "file.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    card_file.unlink()
    [result] = (await replay_session(load_session(path))).results
    assert result.same, result.changes
    assert any("local file" in note for note in result.notes)


async def _stopped_after_step_2(url: str) -> Run:
    from sia_tui.core.engine.procedure import Procedure
    from sia_tui.core.run.read_model import Step, Target

    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    try:
        return await procedure.run_until(Step.SKILL)
    finally:
        await procedure.aclose()


def test_a_run_stopped_after_step_2_replays_as_far_as_it_went(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run the user stopped (Ctrl-C in check --save, or stepping in the TUI) with its
    arguments given: replay runs no further than the recording, so it is the same and
    incomplete, not a step 3 failure "no recorded response" blamed on the network."""
    import asyncio

    agent = reference_agent()
    run = asyncio.run(_stopped_after_step_2(agent.url))
    path = tmp_path / "stopped.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    assert run_session_cli(["replay", str(path)]) == 3
    out = capsys.readouterr().out
    assert "same: today's code reaches the recorded diagnosis" in out
    assert "stopped before step 3: replay stops there too" in out
    assert "today: INCOMPLETE: steps 3-11 did not run" in out
