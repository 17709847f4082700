"""An agent that echoes the credentials it was sent, JSON-escaped or in any other form:
nothing saved or printed holds them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli.parser import run as cli
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import serving
from tests.support.disguises import leaked

BEARER = "canary-bearer-5d2e8b14"


@pytest.mark.parametrize("attack", ["echo-secrets", "echo-secrets-failing"])
def test_an_escaped_echo_of_the_bearer_is_redacted_everywhere(
    attack: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first case found: ``\\u0063\\u0061...`` in a response body was saved as it came, and
    ``replay --json`` printed the decoded token."""
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    session = tmp_path / "s.session.json"
    with serving(attack) as server:
        argv = ["check", server.url, "--skill", SKILL, "--args", str(arguments)]
        cli([*argv, "--bearer", BEARER, "--save", str(session), "--json"])
    recorded = capsys.readouterr()
    # Each exits with the session's verdict; this test is about what they print.
    assert cli(["replay", str(session), "--json"]) != 2  # today's verdicts, as recorded
    assert cli(["report", str(session)]) != 2
    replayed = capsys.readouterr()
    text = session.read_text(encoding="utf-8")
    for where, output in {
        "the session file": text,
        "check --json": recorded.out + recorded.err,
        "replay --json and report": replayed.out + replayed.err,
    }.items():
        assert not leaked(output, {"bearer": BEARER}), where
    assert "«redacted:authorization»" in text
    # What was not secret is still there, byte for byte: the rest of the echo.
    assert '"messageId": "echo"' in text or '\\"messageId\\": \\"echo\\"' in text


def test_a_marked_value_is_kept_in_the_document_and_nowhere_else_in_its_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The describe_skill answer is kept for its digest, but only the document inside it
    is: the same value echoed in the answer's status message is redacted (the agent
    remembers it from the first run's invocation)."""
    marked = ARGUMENTS["resource_id"]
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    session = tmp_path / "s.session.json"
    with serving("echo-secrets-published") as server:
        argv = ["check", server.url, "--skill", SKILL, "--args", str(arguments)]
        cli([*argv, "--secret", marked])
        cli([*argv, "--secret", marked, "--save", str(session)])
    assert cli(["replay", str(session)]) != 2  # the document's bytes, and so its digest
    capsys.readouterr()
    data = json.loads(session.read_text(encoding="utf-8"))
    describes = [ex for ex in data["exchanges"] if ex["purpose"] == "describe_skill"]
    answer = json.loads(describes[0]["response"]["body"]["text"])
    task = answer["result"]["task"]
    document = task["artifacts"][0]["parts"][0]["data"]["skill_interface"]
    assert marked in json.dumps(document)  # the published example, as digested
    echo = task["status"]["message"]["parts"][0]["text"]
    assert "«redacted:secret»" in echo and not leaked(echo, {"marked": marked})
    outside = {**data, "exchanges": [ex for ex in data["exchanges"] if ex not in describes]}
    outside["run"] = {k: v for k, v in data["run"].items() if k != "document"}
    assert not leaked(json.dumps(outside), {"marked": marked})


@pytest.mark.parametrize("mode", ["sync", "stream", "poll"])
def test_a_session_with_redacted_response_headers_replays_as_recorded(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every session whose answers set a cookie once failed replay at step 1
    ("UnicodeEncodeError ... sia-tui bug"): the «redacted:…» placeholder is not ASCII."""
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    session = tmp_path / "s.session.json"
    with serving("credential-headers") as server:
        argv = ["check", server.url, "--skill", SKILL, "--args", str(arguments)]
        assert cli([*argv, "--mode", mode, "--save", str(session)]) == 0
    text = session.read_text(encoding="utf-8")
    assert "«redacted:set-cookie»" in text and "«redacted:x-session-token»" in text
    capsys.readouterr()
    assert cli(["replay", str(session)]) == 0
    assert "same: today's code reaches the recorded diagnosis" in capsys.readouterr().out


def test_a_cookie_that_cannot_be_sent_back_is_dropped_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same defect live: an agent's Set-Cookie of C1 bytes made the next request
    unbuildable, a "sia-tui bug" at step 2 or 3."""
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    with serving("cookie-obs-text") as server:
        argv = ["check", server.url, "--skill", SKILL, "--args", str(arguments), "--json"]
        assert cli(argv) == 0, capsys.readouterr().out
    assert "sia-tui bug" not in capsys.readouterr().out


def test_thousands_of_echoed_secrets_are_each_noted_once_in_linear_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8,000 echoes took 8.7 s: each redaction was looked for in a list of the earlier ones.
    Each echo is still noted once, in order, with about one comparison per echo."""
    from sia_tui.core.redaction.redact import RedactionHit, Redactor

    compared = 0
    equal = RedactionHit.__eq__

    def counting(self: RedactionHit, other: object) -> bool:
        nonlocal compared
        compared += 1
        return equal(self, other)

    monkeypatch.setattr(RedactionHit, "__eq__", counting)
    redactor = Redactor()
    redactor.add_secret(BEARER, "authorization", force=True)
    echoes = [f"echo {BEARER}"] * 8000
    redactor.value(echoes, "body")
    redactor.value(echoes, "body")  # the same places again: nothing new to note
    assert [hit.where for hit in redactor.hits] == [f"body /{i}" for i in range(8000)]
    assert compared <= 2 * len(echoes)  # a list compared 64 million pairs
