"""`compose` and `diff` take Skill Interface Documents, payloads and sessions as files, and
name the command that fits a file of another kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.agent.catalog import SKILLS_BY_ID
from sia_tui.agent.documents import assemble
from sia_tui.cli.parser import run
from sia_tui.core.input_kind import InputKind, kind_of_json, kind_of_text
from sia_tui.core.jsonkit.canonical import digest_of
from tests.support.agents import StartAgent

UP, DOWN = "measure_available_bandwidth", "admit_traffic_demand"


def _document(skill: str) -> dict[str, Any]:
    return assemble(SKILLS_BY_ID[skill], digest_of)


def _write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compose_two_document_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Two vendors' documents that arrived as files: the verdict, not a card error."""
    up = _write(tmp_path, "a.json", _document(UP))
    down = _write(tmp_path, "b.json", _document(DOWN))
    code, out, err = _cli(capsys, "compose", up, UP, down, DOWN)
    assert (code, err) == (0, "")
    assert "✔ direct composition allowed" in out
    assert "declares no callable interface" not in out


def test_compose_a_payload_file_and_the_look_alike_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document = _document("measure_link_capacity")
    payload = {"skill_interface": document, "interface_digest": digest_of(document)}
    up = _write(tmp_path, "a.json", payload)
    down = _write(tmp_path, "b.json", _document(DOWN))
    code, out, _ = _cli(capsys, "compose", up, "measure_link_capacity", down, DOWN)
    assert code == 1
    assert "direct composition not allowed: schema_uri, digest differ" in out  # RULES CMP2


def test_compose_a_session_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, reference_agent: StartAgent
) -> None:
    url = reference_agent().url
    session = str(tmp_path / "up.session.json")
    run(["check", url, "--skill", UP, "--save", session])
    capsys.readouterr()
    down = _write(tmp_path, "b.json", _document(DOWN))
    code, out, err = _cli(capsys, "compose", session, UP, down, DOWN)
    assert (code, err) == (0, "")
    assert "✔ direct composition allowed" in out


def test_compose_a_document_of_another_skill_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    up = _write(tmp_path, "a.json", _document(UP))
    code, out, err = _cli(capsys, "compose", up, DOWN, up, UP)
    assert (code, out) == (2, "")
    assert f"upstream: {up} holds the document of skill {UP!r}, not {DOWN!r}" in err


def test_compose_an_invalid_document_file_is_refused_as_a_live_one_would_be(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document = _document(UP)
    document["input_schema"]["digest"] = "sha256:" + "0" * 64
    up = _write(tmp_path, "a.json", document)
    down = _write(tmp_path, "b.json", _document(DOWN))
    code, _, err = _cli(capsys, "compose", up, UP, down, DOWN)
    assert code == 2
    assert f"upstream: {up} fails steps 4-6 offline" in err and f"sia-tui lint {up}" in err


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("r.xml", '<?xml version="1.0"?>\n<testsuites><testsuite/></testsuites>', "JUnit"),
        ("r.html", "<!DOCTYPE html><html></html>", "HTML"),
        ("r.json", {"format": "sia-probe-report/1", "outcome": "pass"}, "probe --save"),
        ("r.har", {"log": {"version": "1.2", "entries": []}}, "browser devtools"),
        ("p.toml", '[[agent]]\nname = "a"\n', "sia-tui matrix"),
        ("lock.json", {"format": "sia-lock/1", "agents": []}, "--lock"),
    ],
)
def test_a_file_of_another_kind_names_the_command_that_fits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: Any, said: str
) -> None:
    path = _write(tmp_path, name, content)
    down = _write(tmp_path, "b.json", _document(DOWN))
    code, _, err = _cli(capsys, "compose", path, UP, down, DOWN)
    assert code == 2 and said in err, err
    assert "declares no callable interface" not in err
    code, _, err = _cli(capsys, "diff", path, down)
    assert code == 2 and said in err, err


def test_diff_given_a_card_file_asks_for_a_skill(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    card = _write(tmp_path, "card.json", {"name": "x", "skills": []})
    code, _, err = _cli(capsys, "diff", card, card)
    assert code == 2 and f"{card} is an Agent Card; name a skill: {card}#SKILL" in err


def test_kinds_are_read_from_the_first_bytes_and_the_top_members() -> None:
    assert kind_of_text(b"\n  {") is None
    assert kind_of_text(b"# Bug report\n") is InputKind.MARKDOWN
    assert kind_of_json(_document(UP)) is InputKind.DOCUMENT
    assert kind_of_json({"steps": [], "outcome": "passed"}) is InputKind.CHECK_REPORT
    assert kind_of_json({"plugfest": {}, "rows": []}) is InputKind.MATRIX_REPORT
    assert kind_of_json([1]) is InputKind.UNKNOWN
