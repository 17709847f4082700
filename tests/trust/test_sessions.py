"""Trust anchors in sessions: stored with the run (public keys only), replay re-verifies
the recorded card's signatures and compares the lock again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Target
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import replay_session
from sia_tui.core.trust import jws
from sia_tui.core.trust.records import SignatureVerdict
from tests.support.agents import StartAgent
from tests.support.sessions import run_session_cli
from tests.support.signing import anchors

SKILL = "evaluate_resource_condition"


@pytest.fixture
async def signed_session(reference_agent: StartAgent, tmp_path: Path) -> Path:
    """A session of a signed reference agent, verified with a key given in private form."""
    key = jws.generate("EdDSA", "session-key")
    agent = reference_agent(sign_key=key)
    target = Target(agent.url, skill_id=SKILL, anchors=anchors(key, require_signature=True))
    procedure = Procedure(target, ClientOptions())
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert [c.verdict for c in run.answers.card_signatures] == [SignatureVerdict.VERIFIED]
    path = tmp_path / "signed.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    return path


async def test_the_anchors_are_stored_and_replay_verifies_again(signed_session: Path) -> None:
    text = signed_session.read_text(encoding="utf-8")
    stored = json.loads(text)["run"]["target"]["anchors"]
    assert stored["require_signature"] is True
    assert set(stored["keys"][0]["jwk"]) == {"kty", "crv", "x", "kid", "alg"}  # public only
    session = load_session(signed_session)
    assert session.run.target.anchors is not None
    assert session.run.answers.card_signatures[0].verdict is SignatureVerdict.VERIFIED
    result = await replay_session(session)
    assert result.same
    assert result.results[0].run.answers.card_signatures[0].canonicalization == "a2a-1.0"


async def test_replay_finds_a_card_changed_after_it_was_recorded(signed_session: Path) -> None:
    """Replay re-verifies: a card edited in the session no longer verifies, and with the
    signature required step 1 now fails."""
    data = json.loads(signed_session.read_text(encoding="utf-8"))
    body = data["exchanges"][0]["response"]["body"]
    body["text"] = body["text"].replace("A schema-interface reference agent", "An impostor")
    signed_session.write_text(json.dumps(data), encoding="utf-8")
    result = await replay_session(load_session(signed_session))
    assert result.results[0].run.answers.card_signatures[0].verdict is SignatureVerdict.INVALID
    [change] = [c for c in result.results[0].changes if c.step == 1]
    assert change.recorded == "passed" and change.today == "failed (trust; at fault: agent)"


async def test_replay_reports_a_signature_verdict_that_changed(signed_session: Path) -> None:
    """Without --require-signature the steps keep their status: the change is still said."""
    data = json.loads(signed_session.read_text(encoding="utf-8"))
    data["run"]["target"]["anchors"]["require_signature"] = False
    body = data["exchanges"][0]["response"]["body"]
    body["text"] = body["text"].replace("A schema-interface reference agent", "An impostor")
    signed_session.write_text(json.dumps(data), encoding="utf-8")
    result = await replay_session(load_session(signed_session))
    [change] = [c for c in result.results[0].changes if c.step == 1]
    assert (change.recorded, change.today) == ("signatures: verified", "signatures: invalid")


def test_the_bug_report_lists_each_signatures_verdict(
    signed_session: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The session's verdict: steps 1-6 only (no arguments), so incomplete, 3.
    assert run_session_cli(["report", str(signed_session)]) == 3
    out = capsys.readouterr().out
    assert "Trust anchors: card signatures and contract lock" in out
    row = next(line for line in out.splitlines() if "session-key" in line)
    assert "EdDSA" in row and "verified" in row and "a2a-1.0" in row


async def test_the_bug_report_names_the_trusted_keys_not_tried(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """Six trusted keys under the signature's kid: the report's signature row says which
    two were not tried (at most four are, per kid)."""
    from sia_tui.core.bugreport.report_markdown import render_markdown

    key = jws.generate("EdDSA", "session-key")
    others = [jws.generate("EdDSA", "session-key") for _ in range(5)]
    agent = reference_agent(sign_key=key)
    target = Target(agent.url, skill_id=SKILL, anchors=anchors(key, *others))
    procedure = Procedure(target, ClientOptions())
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    path = tmp_path / "keys.session.json"
    save_session(run, ClientOptions(), path)
    report = render_markdown(load_session(path), path.name)
    row = next(line for line in report.splitlines() if "session-key" in line)
    assert "verified" in row
    assert "2 of the 6 trusted keys with kid session-key not tried" in row


def test_a_session_keeps_the_compared_lock_entry_and_the_locks_digest(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole lock was copied into the session (a 12 MB lock made a 12 MB session): it
    keeps the entry the run compared and the sha256 of the lock's bytes, replays to the same
    verdict, and a session written with the whole lock still loads and replays."""
    import hashlib

    from sia_tui.cli import main

    agent = reference_agent()
    lock_file = tmp_path / "big.lock"
    assert main(["pin", agent.url, "--skill", SKILL, "--out", str(lock_file)]) == 0
    lock = json.loads(lock_file.read_text(encoding="utf-8"))
    [mine] = lock["agents"]
    others = [{**mine, "agent": f"other {i}", "card": f"https://a{i}.example/"} for i in range(200)]
    lock["agents"] = [*others, mine]
    lock_file.write_text(json.dumps(lock), encoding="utf-8")
    saved = tmp_path / "locked.session.json"
    argv = ["check", agent.url, "--skill", SKILL, "--args", "example", "--lock", str(lock_file)]
    assert main([*argv, "--save", str(saved)]) == 0

    stored = json.loads(saved.read_text(encoding="utf-8"))["run"]["target"]["anchors"]["lock"]
    assert [a["card"] for a in stored["agents"]] == [mine["card"]]
    assert [s["skill_id"] for s in stored["agents"][0]["skills"]] == [SKILL]
    assert stored["digest"] == "sha256:" + hashlib.sha256(lock_file.read_bytes()).hexdigest()
    assert saved.stat().st_size < lock_file.stat().st_size / 4

    same = "same: today's code reaches the recorded diagnosis at every step"
    capsys.readouterr()
    assert main(["replay", str(saved)]) == 0
    assert same in capsys.readouterr().out
    run = load_session(saved).run
    assert run.answers.lock is not None and run.answers.lock.status == "unchanged"

    data = json.loads(saved.read_text(encoding="utf-8"))
    whole = {"agents": lock["agents"]}  # what an older sia-tui wrote: no digest
    data["run"]["target"]["anchors"]["lock"] = whole
    older = tmp_path / "older.session.json"
    older.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_session(older)
    assert loaded.run.target.anchors is not None and loaded.run.target.anchors.lock is not None
    assert len(loaded.run.target.anchors.lock.agents) == 201
    assert main(["replay", str(older)]) == 0
    assert same in capsys.readouterr().out
