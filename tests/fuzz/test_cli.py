"""`sia-tui fuzz` on the command line: exit status, the reproducing command, --json,
--junit and --save (a session that replay reads like any other)."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sia_tui.cli import main
from sia_tui.core.session import load_session
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"
FAST = ("--examples", "12", "--seed", "4", "--rate", "1000")


def test_a_finding_exits_1_with_a_command_that_reproduces_it(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = reference_agent(fault="rejects-boundary").url
    code = main(["fuzz", url, "--skill", SKILL, *FAST])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILURE (valid-refused), shrunk to the smallest arguments:" in out
    assert "[RULES INV3]" in out
    repro = next(ln for ln in out.splitlines() if ln.startswith("reproduce: "))
    assert "sia-tui check" in repro and "--args -" in repro and "--send-anyway" not in repro
    assert f"repeat the run: sia-tui fuzz {url} --skill {SKILL} --seed 4" in out
    # The printed command reproduces the refusal with `check` (exit 1, input_invalid).
    command = repro.removeprefix("reproduce: ").replace("sia-tui check", "uv run sia-tui check")
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "input_invalid" in done.stdout


def test_clean_json_junit_and_a_session_replay_reads(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    session, junit = tmp_path / "fuzz.json", tmp_path / "fuzz.xml"
    url = reference_agent().url
    code = main(
        [
            "fuzz",
            url,
            "--skill",
            SKILL,
            *FAST,
            "--json",
            "--save",
            str(session),
            "--junit",
            str(junit),
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["outcome"] == "passed" and report["seed"] == 4
    assert report["cases"] and all(c["grade"] == "pass" for c in report["cases"])
    loaded = load_session(session)
    assert loaded.fuzz is not None and loaded.fuzz["seed"] == 4
    assert [c["arguments"] for c in loaded.fuzz["cases"]] == [
        c["arguments"] for c in report["cases"]
    ]
    # Every case is an invocation of the saved run.
    assert len(loaded.run.past_invocations) + 1 == len(report["cases"])
    cases = ET.parse(junit).getroot().findall(".//testcase")
    assert len(cases) == len(report["cases"])
    assert main(["replay", str(session)]) == 0


def test_without_consent_a_skill_that_may_act_exits_3(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["fuzz", reference_agent().url, "--skill", "apply_interface_shutdown", *FAST])
    out = capsys.readouterr().out
    assert code == 3 and "nothing was sent (--allow-execute fuzzes it)" in out


def test_the_bounds_are_refused_outside_their_range(capsys: pytest.CaptureFixture[str]) -> None:
    for flags in (("--rate", "0"), ("--examples", "0"), ("--max-time", "-1")):
        with pytest.raises(SystemExit) as exited:
            main(["fuzz", "http://127.0.0.1:9", "--skill", SKILL, *flags])
        assert exited.value.code == 2


def test_a_run_longer_than_one_session_holds_is_saved_in_several(
    reference_agent: StartAgent,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run holds at most MAX_INVOCATIONS (5 here): the cases go on in a new run, and
    --save writes FILE, FILE-2...; every case is an invocation of exactly one of them."""
    from sia_tui.core import limits

    monkeypatch.setattr(limits, "MAX_INVOCATIONS", 5)
    session = tmp_path / "fuzz.json"
    url = reference_agent().url
    code = main(["fuzz", url, "--skill", SKILL, *FAST, "--json", "--save", str(session)])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and len(report["cases"]) > 5
    files = [session, *sorted(tmp_path.glob("fuzz-*.json"))]
    assert files[1] == tmp_path / "fuzz-2.json"
    loaded = [load_session(f) for f in files]
    invocations = sum(len(s.run.past_invocations) + 1 for s in loaded)
    assert invocations == len(report["cases"])
    assert all(s.fuzz is not None and s.fuzz["files"] == [f.name for f in files] for s in loaded)
