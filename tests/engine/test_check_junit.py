"""`sia-tui check --junit FILE`: one testcase per step, for a vendor's own CI."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"


def _check(url: str, tmp_path: Path, *extra: str) -> tuple[int, ET.Element]:
    junit = tmp_path / "check.xml"
    code = main(["check", url, "--skill", SKILL, "--junit", str(junit), *extra])
    return code, ET.parse(junit).getroot()


def _outcomes(root: ET.Element) -> list[str]:
    out = []
    for case in root.iter("testcase"):
        child = next(
            iter(case.findall("failure") + case.findall("error") + case.findall("skipped")), None
        )
        out.append(child.tag if child is not None else "passed")
    return out


def test_a_failed_step_is_a_failure_and_later_steps_are_skipped(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, root = _check(reference_agent(fault="digest-card").url, tmp_path, "--args", "example")
    assert code == 1
    assert _outcomes(root) == ["passed"] * 3 + ["failure"] + ["skipped"] * 7
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("11", "1", "7")
    cases = root.findall("testsuite/testcase")
    assert cases[3].get("name") == "step 04: Check the interface digest three ways (RULES CP4)"
    failure = cases[3].find("failure")
    assert failure is not None and failure.get("type") == "interface_invalid"
    assert "at fault: agent: the card's advertised digest differs" in (failure.text or "")
    assert "code: interface_invalid (local)" in (failure.text or "")
    skipped = cases[4].find("skipped")
    assert skipped is not None and skipped.get("message") == "skipped: step 4 failed"
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["outcome"] == "failed" and props["skill"] == SKILL


def test_steps_that_did_not_run_are_skipped_with_the_reason_never_passed(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --args steps 7-11 do not run: exit 3, and CI sees them skipped, not passed."""
    code, root = _check(reference_agent().url, tmp_path)
    assert code == 3
    assert _outcomes(root) == ["passed"] * 6 + ["skipped"] * 5
    messages = {s.get("message") for s in root.findall("testsuite/testcase/skipped")}
    assert messages == {"not run: steps 7-11 did not run: no arguments were given"}


def test_all_eleven_passed(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, root = _check(reference_agent().url, tmp_path, "--args", "example")
    assert code == 0 and _outcomes(root) == ["passed"] * 11
    assert root.get("failures") == root.get("errors") == root.get("skipped") == "0"


def test_a_usage_failure_is_an_error_not_a_failure(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check could not be carried out as asked (a mode the skill does not declare)."""
    code, root = _check(reference_agent().url, tmp_path, "--args", "example", "--mode", "poll")
    assert code == 2
    assert _outcomes(root) == ["passed"] * 7 + ["error"] + ["skipped"] * 3


def test_credentials_in_the_card_url_are_not_in_the_file(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The suite is named after the card URL: its password is redacted there too."""
    url = reference_agent().url.replace("http://", "http://plugfest:CANARY-pw-5555@")
    code, root = _check(url, tmp_path, "--args", "example")
    assert code == 0
    text = (tmp_path / "check.xml").read_text(encoding="utf-8")
    assert "CANARY-pw-5555" not in text and "«redacted:userinfo»" in text
