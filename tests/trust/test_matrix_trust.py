"""Plugfest mode: ``trusted_keys``, ``require_signature`` and ``lock`` per agent, and the
``sig`` and ``lock`` columns that show each agent's signatures and drift."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.agent.faults import Fault
from sia_tui.cli import main
from sia_tui.core.trust import jws
from sia_tui.core.trust.sign import public_key_set
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"
#: The agent the organiser signed for, with its trust anchors (files beside the plugfest).
SIGNED = """
[[agent]]
name = "signed"
card = "{url}"
trusted_keys = "a.jwks"
require_signature = true
lock = "l"
"""


def organiser_files(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    """A fresh signing key (its public JWKS as ``a.jwks``) and a lock ``l`` pinned from the
    reference agent, as a plugfest organiser hands them out; the key, to sign a card."""
    key = jws.generate("RS256", "vendor-a-1")
    (tmp_path / "a.jwks").write_text(json.dumps(public_key_set(key)))
    assert main(["pin", reference_agent().url, "--skill", SKILL, "--out", str(tmp_path / "l")]) == 0
    capsys.readouterr()
    return key


def write_plugfest(tmp_path: Path, agents: str) -> Path:
    """``PLUGFEST.toml``: the skill, one binding and mode, and ``agents``."""
    path = tmp_path / "PLUGFEST.toml"
    head = f'modes = ["sync"]\nbindings = ["jsonrpc"]\n[[skill]]\nid = "{SKILL}"\n'
    path.write_text(head + agents, encoding="utf-8")
    return path


def test_the_matrix_shows_signatures_and_drift(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = organiser_files(reference_agent, tmp_path, capsys)
    signed = reference_agent(sign_key=key).url
    drifted = reference_agent(fault=Fault.DRIFT_SAME_VERSION).url
    agents = SIGNED.format(url=signed) + f'[[agent]]\nname = "drifted"\ncard = "{drifted}"\n'
    path = write_plugfest(tmp_path, agents + 'lock = "l"\n')
    code = main(["matrix", str(path), "--json", "--trust-file-anchors"])
    report = json.loads(capsys.readouterr().out)
    keys = [c["key"] for c in report["columns"]]
    assert keys[-2:] == ["signature", "lock"]
    cells = {row["agent"]: row["cells"] for row in report["rows"]}
    assert cells["signed"]["signature"]["status"] == "pass"
    assert "verified (a2a-1.0)" in cells["signed"]["signature"]["summary"]
    assert cells["signed"]["lock"]["status"] == "pass"
    assert cells["drifted"]["signature"]["status"] == "skip"  # unsigned, nothing required
    assert cells["drifted"]["lock"]["status"] == "fail"
    assert cells["drifted"]["lock"]["summary"].startswith("drift:")
    assert cells["drifted"]["JSONRPC/sync"]["status"] == "fail"  # the run fails at step 4
    assert code == 1


def test_a_plugfest_file_alone_marks_no_card_verified(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file handed to the user names a key that signed the agent's card, and a lock. The
    file grants no trust: without `--trust-file-anchors` neither is used (no card shows
    "verified", no interface "as pinned"), and a warning on stderr names each key of the file
    and the flag; `require_signature` (which only asks for more) still holds."""
    key = organiser_files(reference_agent, tmp_path, capsys)
    path = write_plugfest(tmp_path, SIGNED.format(url=reference_agent(sign_key=key).url))
    code = main(["matrix", str(path), "--json"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    cells = report["rows"][0]["cells"]
    assert [c["key"] for c in report["columns"]][-1] == "signature"  # no lock column
    assert cells["signature"]["status"] == "skip"
    assert "no trusted keys were given" in cells["signature"]["summary"]
    # Required, and no key is trusted: the run fails at step 1.
    assert (cells["JSONRPC/sync"]["status"], cells["JSONRPC/sync"]["step"]) == ("fail", 1)
    for member in ("trusted_keys", "lock"):
        assert f"[[agent]] #1, {member}: not used: a plugfest file grants no trust" in captured.err
    assert "`sia-tui matrix --trust-file-anchors`" in captured.err
    assert code == 1


def test_a_plugfest_key_set_that_cannot_be_read_is_a_located_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.jwks").write_text('{"keys": [{"kty": "oct", "k": "AA", "kid": "h"}]}')
    (tmp_path / "PLUGFEST.toml").write_text(
        '[[agent]]\nname = "a"\ncard = "http://127.0.0.1:9"\ntrusted_keys = "bad.jwks"\n'
    )
    assert main(["matrix", str(tmp_path / "PLUGFEST.toml"), "--trust-file-anchors"]) == 2
    assert "symmetric" in capsys.readouterr().err
