"""Keys for vendors: `sign-card --new-key FILE` and `serve-demo --write-key FILE` write the
private JWK they sign with, mode 0600, never over an existing file; `sign-card --key FILE`
signs with it later, and a verifier trusting its public part verifies the card."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.cli import main
from sia_tui.core.trust.keys import load_trusted_keys
from sia_tui.core.trust.records import SignatureVerdict, TrustAnchors
from sia_tui.core.trust.sign import public_key_set
from sia_tui.core.trust.verify import check_signatures

CARD = {
    "name": "Vendor",
    "description": "d",
    "version": "1",
    "supportedInterfaces": [],
    "capabilities": {},
    "defaultInputModes": [],
    "defaultOutputModes": [],
    "skills": [],
}


def _verdicts(card: dict[str, Any], jwks: Path) -> list[SignatureVerdict]:
    keys, _notes = load_trusted_keys(str(jwks))
    return [c.verdict for c in check_signatures(card, TrustAnchors(keys=keys))]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_sign_card_new_key_writes_a_0600_key_it_signs_with_and_reuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card, key, jwks, signed = (tmp_path / n for n in ("card", "key", "jwks", "signed"))
    card.write_text(json.dumps(CARD))
    args = ["sign-card", str(card), "--new-key", str(key), "--jwks-out", str(jwks)]
    assert main([*args, "--out", str(signed)]) == 0
    assert _mode(key) == 0o600
    private = json.loads(key.read_text())
    assert private["alg"] == "ES256" and "d" in private  # the private member is kept
    err = capsys.readouterr().err
    assert (
        f"sia-tui sign-card: new ES256 key {private['kid']} written to {key} (mode 0600); "
        f"sign again with --key {key}"
    ) in err
    assert json.loads(jwks.read_text()) == public_key_set(private)
    assert _verdicts(json.loads(signed.read_text()), jwks) == [SignatureVerdict.VERIFIED]
    # Later, the same key from its file: a second signature the same JWKS verifies.
    again = tmp_path / "again"
    assert main(["sign-card", str(signed), "--key", str(key), "--out", str(again)]) == 0
    assert _verdicts(json.loads(again.read_text()), jwks) == [SignatureVerdict.VERIFIED] * 2


def test_sign_card_new_key_never_overwrites_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card, key = tmp_path / "card", tmp_path / "key"
    card.write_text(json.dumps(CARD))
    key.write_text("my only copy of another key")
    assert main(["sign-card", str(card), "--new-key", str(key)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no card was signed with a key nobody kept
    assert f"sia-tui: {key} exists; a new key is never written over a file" in captured.err
    assert key.read_text() == "my only copy of another key"


def test_sign_card_takes_one_key_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = tmp_path / "card"
    card.write_text(json.dumps(CARD))
    with pytest.raises(SystemExit) as exited:
        main(["sign-card", str(card), "--key", "a", "--new-key", "b"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sia_tui", "serve-demo", "--binding", "jsonrpc", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_serve_demo_write_key_keeps_the_key_of_its_signed_card(tmp_path: Path) -> None:
    key, jwks = tmp_path / "key.json", tmp_path / "keys.json"
    with _serve("--write-key", str(key), "--write-jwks", str(jwks)) as proc:
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            card = httpx.get(url + "/.well-known/agent-card.json", timeout=10).json()
        finally:
            proc.terminate()
            proc.communicate(timeout=20)
    assert _mode(key) == 0o600
    private = json.loads(key.read_text())
    assert "d" in private and json.loads(jwks.read_text()) == public_key_set(private)
    assert _verdicts(card, jwks) == [SignatureVerdict.VERIFIED]
    # The vendor signs their own card with the kept key; the same JWKS verifies it.
    mine, signed = tmp_path / "mine.json", tmp_path / "signed.json"
    mine.write_text(json.dumps(CARD))
    assert main(["sign-card", str(mine), "--key", str(key), "--out", str(signed)]) == 0
    assert _verdicts(json.loads(signed.read_text()), jwks) == [SignatureVerdict.VERIFIED]


@pytest.mark.parametrize("extra", [[], ["--sign-key", "given.json"]], ids=["exists", "sign-key"])
def test_serve_demo_write_key_refuses_before_serving(tmp_path: Path, extra: list[str]) -> None:
    key = tmp_path / "key.json"
    key.write_text("kept")
    given = tmp_path / "given.json"
    given.write_text("{}")
    args = [a.replace("given.json", str(given)) for a in extra]
    result = subprocess.run(
        [sys.executable, "-m", "sia_tui", "serve-demo", "--write-key", str(key), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    wanted = "with --sign-key the key is yours" if extra else "exists; a new key is never"
    assert wanted in result.stderr and "Traceback" not in result.stderr
    assert key.read_text() == "kept"
