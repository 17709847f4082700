"""`sia-tui probe`: exit statuses, the --json contract, JUnit, sessions that replay re-grades,
and no secret in any output."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"
CANARY = "canary-pr0be-5e1f"
ENTRY_KEYS = {"id", "rule", "draft", "sent", "expected", "observed", "grade", "exchanges"}


def probe_cli(*argv: str) -> int:
    return main(["probe", *argv])


def test_clean_agent_exit_0_and_the_json_contract(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/PROBE.md: one entry per probe with its rule and the draft revision."""
    code = probe_cli(reference_agent().url, "--skill", SKILL, "--json")
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["format"] == "sia-probe-report/1"
    assert report["draft"] == "draft-huang-ainetops-agent-schema-interfaces-00"
    assert report["outcome"] == "passed" and report["learning"]["baseline"] == "ran"
    assert report["summary"] == {"pass": 11, "fail": 0, "warn": 0, "skip": 2}
    assert len(report["probes"]) == 13
    seqs = {e["seq"] for e in report["exchanges"]}
    for entry in report["probes"]:
        assert set(entry) >= ENTRY_KEYS
        assert entry["draft"] == report["draft"] and entry["rule"]
        assert set(entry["exchanges"]) <= seqs
        if entry["grade"] == "skip":
            assert entry["sent"] is None and entry["observed"] is None and entry["reason"]
        else:
            assert entry["sent"]["data"] and entry["observed"]["answer"] == "task"
    stale = next(e for e in report["probes"] if e["id"] == "stale-digest")
    assert stale["expected"]["code"] == "interface_mismatch"
    assert stale["observed"]["code"] == "interface_mismatch"
    wrong_type = next(e for e in report["probes"] if e["id"] == "invalid-wrong-type")
    assert wrong_type["expected"]["details_pointers"] == ["/resource_id"]


def test_a_failing_probe_exits_1_and_shows_what_should_have_come(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    code = probe_cli(reference_agent(fault="accepts-stale").url, "--skill", SKILL)
    out = capsys.readouterr().out
    assert code == 1
    line = next(ln for ln in out.splitlines() if "stale-digest" in ln)
    assert "✘ fail" in line and "INV2" in line
    assert "should have answered: a task in TASK_STATE_REJECTED" in out
    assert "outcome: FAILED" in out


@pytest.mark.parametrize("fault", ["mismatch", "digest-card"])
def test_an_interface_that_cannot_be_learned_exits_3(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str], fault: str
) -> None:
    """The eleven steps fail (here at step 8 or 4): nothing is probed."""
    code = probe_cli(reference_agent(fault=fault).url, "--skill", SKILL)
    out = capsys.readouterr().out
    assert code == 3
    said = {
        "mismatch": "steps 1-6 learned the interface, but the valid baseline invocation "
        "(steps 7-11) failed: step 8",
        "digest-card": "the interface was not learned: step 4",
    }[fault]
    assert said in out and "no probe was sent" in out


def test_usage_errors_exit_2(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = reference_agent().url
    broken = tmp_path / "broken.json"
    broken.write_text('{"resource_id": ', encoding="utf-8")
    assert probe_cli(url, "--skill", SKILL, "--args", str(broken)) == 2
    invalid = tmp_path / "invalid.json"
    invalid.write_text('{"resource_id": 7}', encoding="utf-8")
    assert probe_cli(url, "--skill", SKILL, "--args", str(invalid)) == 2
    assert "the arguments given do not validate" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        probe_cli(url)  # --skill is required
    assert exited.value.code == 2


def test_given_arguments_are_what_the_invalid_ones_are_made_from(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = tmp_path / "args.json"
    arguments = {
        "resource_id": "edge-9",
        "condition": {"metric": "loss", "operator": "lt", "threshold": 1, "unit": "percent"},
    }
    given.write_text(json.dumps(arguments), encoding="utf-8")
    assert probe_cli(reference_agent().url, "--skill", SKILL, "--args", str(given), "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["arguments_source"] == "file"
    wrong = next(e for e in report["probes"] if e["id"] == "invalid-wrong-type")
    assert wrong["sent"]["data"]["arguments"]["condition"] == arguments["condition"]


def _junit(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    return {case.attrib["name"].split(" ")[0]: case for case in root.iter("testcase")}


def test_junit_fail_is_a_failure_warn_is_system_out_skip_is_skipped(
    sdk_extension_agent_url: str, tmp_path: Path
) -> None:
    """The a2a-sdk agent has a failure, warnings and skips in one report."""
    path = tmp_path / "probe.xml"
    code = probe_cli(sdk_extension_agent_url, "--skill", SKILL, "--junit", str(path))
    assert code == 1
    cases = _junit(path)
    assert len(cases) == 13
    failure = cases["oversized-input"].find("failure")
    assert failure is not None and "ERR3" in failure.attrib["type"]
    assert "draft-huang-ainetops-agent-schema-interfaces-00" in failure.attrib["message"]
    assert "should have answered" in (failure.text or "")
    warned = cases["unadvertised-skill"]
    assert warned.find("failure") is None
    out = warned.find("system-out")
    assert out is not None and (out.text or "").startswith("warn: ")
    assert cases["missing-credentials"].find("skipped") is not None
    passed = cases["stale-digest"]
    assert list(passed) == []  # a pass has no child element
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None
    assert (suite.attrib["failures"], suite.attrib["skipped"]) == ("1", "2")


def test_saved_probe_session_replays_and_regrades_offline(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """replay answers every recorded probe from its bytes with today's grading rules."""
    agent = reference_agent(fault="args-execution-failed")
    saved = tmp_path / "probe.session.json"
    assert probe_cli(agent.url, "--skill", SKILL, "--save", str(saved)) == 1
    agent.stop()  # offline from here
    capsys.readouterr()
    assert main(["replay", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "same: today's rules give every one of 13 probes its grade" in out
    # A grade recorded by an older, wronger tool: today's rules correct it.
    document: dict[str, Any] = json.loads(saved.read_text(encoding="utf-8"))
    results = document["probe"]["results"]
    entry = next(r for r in results if r["kind"] == "invalid-wrong-type")
    assert entry["grade"] == "fail"
    entry["grade"] = "pass"
    saved.write_text(json.dumps(document), encoding="utf-8")
    assert main(["replay", str(saved), "--json"]) == 1
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["probes"]["changes"] == [
        {"id": "invalid-wrong-type", "recorded": "pass", "today": "fail"}
    ]
    assert replayed["same"] is True  # the eleven steps themselves did not change


def test_help_states_the_safety_rule_and_the_exit_statuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        probe_cli("--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "--allow-execute" in text and "--allow-valid-invocations" in text
    assert "break the input schema" in text and "execute authority" in text
    assert "3 a step of the learning run failed (steps 1-6, or the valid baseline 7-11)" in text


def test_an_execute_skill_needs_the_flag_for_valid_invocations(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    url = reference_agent().url
    assert probe_cli(url, "--skill", "apply_interface_shutdown", "--json") == 0
    captured = capsys.readouterr()
    assert "--allow-execute runs them" in captured.err
    assert json.loads(captured.out)["learning"]["baseline"] == "not_run"
    code = probe_cli(
        url, "--skill", "apply_interface_shutdown", "--json", "--allow-valid-invocations"
    )
    assert code == 0
    assert json.loads(capsys.readouterr().out)["learning"]["baseline"] == "ran"


def test_no_secret_in_any_output(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bearer token goes on the wire, never into the report, JUnit or the session."""
    saved, junit = tmp_path / "s.session.json", tmp_path / "j.xml"
    argv = ["--skill", SKILL, "--bearer", CANARY, "--save", str(saved), "--junit", str(junit)]
    assert probe_cli(reference_agent().url, *argv, "--json") == 0
    outputs = capsys.readouterr()
    for text in (outputs.out, outputs.err, saved.read_text(), junit.read_text()):
        assert CANARY not in text
    assert "«redacted:authorization»" in saved.read_text()
