"""A live `rerun` takes its trust anchors from its own flags, never from the session file.

A session stores the keys, the required signature and the lock its run was checked
against, so that `replay` (offline) reproduces the recorded verdict. A session file is
someone else's input: a key edited into it must not make a live agent's card "verified".
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Target
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.replay import replay_session
from sia_tui.core.session.rerun import rerun_session
from sia_tui.core.trust import jws
from sia_tui.core.trust.keys import load_trusted_keys
from sia_tui.core.trust.records import SignatureVerdict, TrustAnchors
from sia_tui.core.trust.sign import public_key_set
from tests.support.agents import StartAgent
from tests.support.sessions import run_session_cli
from tests.support.signing import anchors

SKILL = "evaluate_resource_condition"
KID = "vendor-1"


@pytest.fixture
def user_key() -> dict[str, Any]:
    """The vendor's real signing key: the one the person running rerun trusts."""
    return jws.generate("EdDSA", KID)


@pytest.fixture
def attacker_key() -> dict[str, Any]:
    """The attacker's key, under the same kid."""
    return jws.generate("EdDSA", KID)


@pytest.fixture
def user_jwks(tmp_path: Path, user_key: dict[str, Any]) -> str:
    path = tmp_path / "vendor.jwks"
    path.write_text(json.dumps(public_key_set(user_key)))
    return str(path)


def _edited_session(
    url: str, tmp_path: Path, user_key: dict[str, Any], attacker_key: dict[str, Any]
) -> Path:
    """A run of the attacker's agent checked with the user's key, saved, then edited: the
    stored trusted key is now the attacker's, and a signature is required."""

    async def record() -> Any:
        target = Target(url, skill_id=SKILL, anchors=anchors(user_key))
        procedure = Procedure(target, ClientOptions())
        try:
            return await procedure.run_all()
        finally:
            await procedure.aclose()

    run = asyncio.run(record())
    assert [c.verdict for c in run.answers.card_signatures] == [SignatureVerdict.INVALID]
    path = tmp_path / "shared.session.json"
    save_session(run, ClientOptions(), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    stored = document["run"]["target"]["anchors"]
    stored["keys"][0]["jwk"] = jws.public_jwk(attacker_key)
    stored["require_signature"] = True
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _verdicts(path: Path, given: TrustAnchors | None) -> tuple[list[SignatureVerdict], Any]:
    result = asyncio.run(rerun_session(load_session(path), anchors=given))
    [each] = result.results
    return [c.verdict for c in each.run.answers.card_signatures], result


@pytest.mark.usefixtures("cli_wording")
def test_a_key_edited_into_a_session_does_not_verify_a_live_forged_card(
    reference_agent: StartAgent,
    tmp_path: Path,
    user_key: dict[str, Any],
    attacker_key: dict[str, Any],
    user_jwks: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The attacker's agent signs its card with the attacker's key, and the attacker's key
    is edited into the session. Offline replay (recorded bytes, the recorded anchors)
    verifies, as the file says; a live rerun does not, and says what the file recorded."""
    agent = reference_agent(sign_key=attacker_key)
    path = _edited_session(agent.url, tmp_path, user_key, attacker_key)
    # The edit took: replaying the recorded card with the file's anchors verifies it.
    replayed = asyncio.run(replay_session(load_session(path)))
    assert [c.verdict for c in replayed.results[0].run.answers.card_signatures] == [
        SignatureVerdict.VERIFIED
    ]

    # Live, no trust flag: no key is trusted, so nothing is verified.
    verdicts, result = _verdicts(path, None)
    assert SignatureVerdict.VERIFIED not in verdicts
    recorded = f"the session recorded 1 trusted key(s) (kid {KID}); this run uses no trusted keys"
    assert any(n.startswith(recorded) for n in result.notes)
    assert any("require_signature yes; this run uses no" in n for n in result.notes)

    # Live, the user's own key: the attacker's signature is invalid, and with the
    # signature required step 1 fails.
    keys, _ = load_trusted_keys(user_jwks)
    mine = TrustAnchors(keys=keys, keys_source=user_jwks, require_signature=True)
    verdicts, result = _verdicts(path, mine)
    assert verdicts == [SignatureVerdict.INVALID]
    failed = result.results[0].run.failed_step
    assert failed is not None and failed.step == 1

    # The command line says what the file recorded and what this run uses.
    assert run_session_cli(["rerun", str(path)]) in (0, 1)
    out = capsys.readouterr().out
    assert f"note: the session recorded 1 trusted key(s) (kid {KID}); this run uses " in out
    assert "note: the session recorded require_signature yes; this run uses no" in out
    assert run_session_cli(["rerun", str(path), "--json"]) in (0, 1)
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("(--trusted-keys)" in n for n in notes)
    code = run_session_cli(["rerun", str(path), "--trusted-keys", user_jwks, "--require-signature"])
    assert code == 1  # changed: step 1 now fails on the attacker's signature
    assert "step 1" in capsys.readouterr().out


@pytest.mark.usefixtures("cli_wording")
def test_the_users_own_keys_verify_a_genuine_card_on_rerun(
    reference_agent: StartAgent,
    tmp_path: Path,
    user_key: dict[str, Any],
    attacker_key: dict[str, Any],
    user_jwks: str,
) -> None:
    """The same edited file, the vendor's genuine agent: the user's --trusted-keys verify
    it (the flags decide, and the file's key changes nothing)."""
    agent = reference_agent(sign_key=user_key)
    path = _edited_session(agent.url, tmp_path, attacker_key, attacker_key)
    keys, _ = load_trusted_keys(user_jwks)
    verdicts, result = _verdicts(path, TrustAnchors(keys=keys, require_signature=True))
    assert verdicts == [SignatureVerdict.VERIFIED]
    assert result.results[0].run.failed_step is None or result.results[0].run.failed_step.step != 1
    assert any("no trusted keys" not in n and "(--trusted-keys)" in n for n in result.notes)


def test_the_bug_report_tells_the_reader_to_give_their_own_anchors(
    reference_agent: StartAgent,
    tmp_path: Path,
    user_key: dict[str, Any],
    attacker_key: dict[str, Any],
) -> None:
    """The report's "Re-run it" section says that rerun uses only the reader's anchors
    (the command it shows carries none of the session's)."""
    from sia_tui.core.bugreport.report_markdown import render_markdown

    agent = reference_agent(sign_key=attacker_key)
    path = _edited_session(agent.url, tmp_path, user_key, attacker_key)
    report = render_markdown(load_session(path), path.name)
    rerun = report[report.index("Re-run it") :]
    assert "rerun checks the live agent only against your own" in rerun
    assert "--trusted-keys" in rerun
