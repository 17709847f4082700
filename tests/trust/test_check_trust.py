"""`check --trusted-keys/--require-signature/--lock`, `sign-card` and `pin` end to end,
against the reference agent (signed card, drift faults) on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.agent.faults import Fault
from sia_tui.cli import main
from sia_tui.core.trust import jws
from sia_tui.core.trust.sign import public_key_set
from tests.support.agents import StartAgent
from tests.support.signing import header, jwks_server

SKILL = "evaluate_resource_condition"


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", *argv, "--skill", SKILL, "--args", "example", "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def key(tmp_path: Path) -> dict[str, Any]:
    return jws.generate("ES256", "demo-1")


@pytest.fixture
def jwks_file(tmp_path: Path, key: dict[str, Any]) -> str:
    path = tmp_path / "trusted.json"
    path.write_text(json.dumps(public_key_set(key)))
    return str(path)


def _card_file(tmp_path: Path, url: str, change: Any = None) -> str:
    card = httpx.get(url + "/.well-known/agent-card.json").json()
    if change is not None:
        change(card)
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    return str(path)


def test_a_signed_reference_card_is_verified_and_says_how(
    reference_agent: StartAgent,
    key: dict[str, Any],
    jwks_file: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent = reference_agent(sign_key=key)
    code, report = _check(capsys, agent.url, "--trusted-keys", jwks_file, "--require-signature")
    assert code == 0 and report["outcome"] == "passed"
    assert report["card_signatures"] == [
        {
            "index": 0,
            "kid": "demo-1",
            "alg": "ES256",
            "verdict": "verified",
            "canonicalization": "a2a-1.0",
            "reason": None,
            "jku": None,
            "keys_not_tried": None,
        }
    ]
    assert report["lock"] is None


def test_an_unsigned_card_gives_an_empty_list_and_fails_only_when_required(
    reference_agent: StartAgent, jwks_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent()
    code, report = _check(capsys, agent.url, "--trusted-keys", jwks_file)
    assert (code, report["card_signatures"]) == (0, [])
    code, report = _check(capsys, agent.url, "--trusted-keys", jwks_file, "--require-signature")
    assert code == 1 and report["outcome"] == "failed"
    first = report["steps"][0]
    assert (first["status"], first["origin"], first["category"]) == ("failed", "local", "trust")
    assert report["error"]["step"] == 1 and report["at_fault"]["party"] == "agent"
    assert {s["status"] for s in report["steps"][1:]} == {"skipped"}  # nothing else is sent


def test_an_invalid_signature_warns_on_step_1_and_fails_only_when_required(
    reference_agent: StartAgent,
    key: dict[str, Any],
    jwks_file: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent = reference_agent(sign_key=key)
    card = _card_file(tmp_path, agent.url, lambda c: c.update(description="changed"))
    code, report = _check(capsys, card, "--trusted-keys", jwks_file)
    assert code == 0 and report["card_signatures"][0]["verdict"] == "invalid"
    [warning] = report["steps"][0]["findings"]
    assert (warning["severity"], warning["pointer"]) == ("warning", "/signatures/0")
    assert any("invalid" in w for w in report["warnings"])
    code, report = _check(capsys, card, "--trusted-keys", jwks_file, "--require-signature")
    assert code == 1 and report["error"]["step"] == 1


def test_a_jku_on_loopback_is_never_requested(
    reference_agent: StartAgent,
    key: dict[str, Any],
    jwks_file: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """RULES SR7: the signer names where its key is; keys come only from the user."""
    agent = reference_agent()
    with jwks_server() as (url, hits):
        card_path = Path(_card_file(tmp_path, agent.url))
        card = json.loads(card_path.read_text())
        signed = main_sign(tmp_path, card, key, url)
        code, report = _check(capsys, signed, "--require-signature")
        assert code == 1 and report["card_signatures"][0]["jku"] == url
        code, report = _check(capsys, signed, "--trusted-keys", jwks_file)
        assert code == 0 and report["card_signatures"][0]["verdict"] == "verified"
        assert hits == []


def main_sign(tmp_path: Path, card: dict[str, Any], key: dict[str, Any], jku: str) -> str:
    """`sia-tui sign-card` with a jku hint: the signed card's path."""
    (tmp_path / "in.json").write_text(json.dumps(card))
    (tmp_path / "key.json").write_text(json.dumps(key))
    out = tmp_path / "signed.json"
    argv = ["sign-card", str(tmp_path / "in.json"), "--key", str(tmp_path / "key.json")]
    assert main([*argv, "--jku", jku, "--out", str(out)]) == 0
    return str(out)


def test_sign_card_fixes_a_vendors_signature_and_writes_the_jwks(
    tmp_path: Path, key: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    broken: dict[str, Any] = {"name": "Vendor", "description": "", "capabilities": {}, "skills": []}
    broken["signatures"] = [{"protected": header(alg="HS256", kid="x"), "signature": "AA"}]
    (tmp_path / "card.json").write_text(json.dumps(broken))
    (tmp_path / "key.json").write_text(json.dumps({"keys": [key]}))
    code = main(
        [
            "sign-card",
            str(tmp_path / "card.json"),
            "--key",
            str(tmp_path / "key.json"),
            "--jwks-out",
            str(tmp_path / "jwks.json"),
        ]
    )
    out = capsys.readouterr()
    assert code == 0 and "verified (a2a-1.0)" in out.err
    card = json.loads(out.out)
    assert len(card["signatures"]) == 2  # the vendor's kept, ours after it
    jwks = json.loads((tmp_path / "jwks.json").read_text())
    assert "d" not in jwks["keys"][0] and jwks["keys"][0]["kid"] == "demo-1"


def test_sign_card_refuses_a_public_key(tmp_path: Path, key: dict[str, Any]) -> None:
    (tmp_path / "card.json").write_text(json.dumps({"name": "x"}))
    (tmp_path / "key.json").write_text(json.dumps(jws.public_jwk(key)))
    argv = ["sign-card", str(tmp_path / "card.json"), "--key", str(tmp_path / "key.json")]
    assert main(argv) == 2


# -- the contract lock against the reference agent's drift faults -------------------------
@pytest.fixture
def lock_file(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> str:
    """A lock pinned from the correct agent (another port than the faulty ones)."""
    agent = reference_agent()
    path = tmp_path / "agent.lock"
    assert main(["pin", agent.url, "--skill", SKILL, "--out", str(path)]) == 0
    assert "pinned sia-tui reference agent: evaluate_resource_condition 1.0" in (
        capsys.readouterr().out
    )
    return str(path)


@pytest.mark.parametrize(
    ("fault", "status", "verdict", "exit_code"),
    [
        (None, "unchanged", None, 0),
        (Fault.DRIFT_SAME_VERSION, "drift", "compatible", 1),
        (Fault.DRIFT_COMPATIBLE_BUMP, "version-changed", "compatible", 0),
        (Fault.DRIFT_BREAKING_BUMP, "version-changed", "breaking", 0),
        (Fault.DRIFT_WRONG_BUMP, "wrong-bump", "breaking", 1),
    ],
)
def test_check_lock_against_each_drift_fault(
    reference_agent: StartAgent,
    lock_file: str,
    capsys: pytest.CaptureFixture[str],
    fault: Fault | None,
    status: str,
    verdict: str | None,
    exit_code: int,
) -> None:
    agent = reference_agent(fault=fault)
    code, report = _check(capsys, agent.url, "--lock", lock_file)
    lock = report["lock"]
    assert (code, lock["status"]) == (exit_code, status)
    assert (lock["diff"] or {}).get("verdict") == verdict
    assert lock["pinned"]["skill_version"] == "1.0"
    if exit_code:
        assert report["outcome"] == "failed" and report["error"]["step"] == 4
        assert report["steps"][3]["category"] == "trust"
        assert report["steps"][6]["status"] == "skipped"  # nothing delegated past a lock
    if verdict:
        assert lock["diff"]["changes"][0]["pointer"].startswith("/input_schema/")


def test_a_lock_that_pins_nothing_here_is_a_usage_error(
    reference_agent: StartAgent, lock_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent()
    code = main(["check", agent.url, "--skill", "check_link_capacity", "--lock", lock_file])
    out = capsys.readouterr().out
    assert code == 2 and "pins no skill 'check_link_capacity'" in out


def test_an_edited_lock_is_refused(
    reference_agent: StartAgent, lock_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = json.loads(Path(lock_file).read_text())
    lock["agents"][0]["skills"][0]["document"]["skill_version"] = "9.9"
    Path(lock_file).write_text(json.dumps(lock))
    agent = reference_agent()
    assert main(["check", agent.url, "--skill", SKILL, "--lock", lock_file]) == 2
    assert "edited after it was pinned" in capsys.readouterr().err


def test_pin_again_keeps_the_other_skills(
    reference_agent: StartAgent, lock_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent(fault=Fault.DRIFT_COMPATIBLE_BUMP)
    assert main(["pin", agent.url, "--skill", "check_link_capacity", "--out", lock_file]) == 0
    [pinned] = json.loads(Path(lock_file).read_text())["agents"]
    assert [s["skill_id"] for s in pinned["skills"]] == [SKILL, "check_link_capacity"]


def test_trusted_keys_from_a_url_the_user_names(
    reference_agent: StartAgent, key: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """The user may name a JWKS URL (fetched once); the text report lists the verdicts."""
    agent = reference_agent(sign_key=key)
    with jwks_server(json.dumps(public_key_set(key)).encode()) as (url, hits):
        code = main(["check", agent.url, "--skill", SKILL, "--trusted-keys", url])
        assert hits == ["/jwks.json"]
    out = capsys.readouterr().out
    assert code == 3  # no --args: steps 7-11 did not run, the signature changes nothing
    assert "card signatures:\n  #0 demo-1 ES256: verified (a2a-1.0)" in out


def test_serve_demo_generates_a_key_and_writes_only_its_public_jwks(tmp_path: Path) -> None:
    import argparse

    from sia_tui.cli.cmd_serve import signing_key

    out = tmp_path / "keys.json"
    key = signing_key(argparse.Namespace(sign_key=None, write_jwks=str(out), write_key=None))
    assert key is not None and "d" in key
    [public] = json.loads(out.read_text())["keys"]
    assert "d" not in public and public["kid"] == key["kid"]
    assert signing_key(argparse.Namespace(sign_key=None, write_jwks=None, write_key=None)) is None
