"""A session of several invocations: replay, rerun and report give each its own verdict.

The issue's session: a negative test the agent rightly rejects, then valid arguments. Saved
as one run, `report` said PASSED, `replay` paired the valid arguments with the first invoke
exchange and blamed a conformant agent, `rerun` diffed the first invoke against today's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import load_session, save_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, APPENDIX_B_INVALID_ARGUMENTS
from tests.support.sessions import record_two_invocations, run_session_cli

#: A sia-session/3 file of that session, saved before invocations were kept apart: its run
#: holds the last invocation's steps and both invocations' exchanges.
V3_FILE = (
    Path(__file__).parents[1] / "fixtures" / "sessions" / "negative-then-valid-v3.session.json"
)
NEGATIVE = "NEGATIVE TEST PASSED: the agent rejected the invalid arguments"
PASSED = "PASSED: all eleven steps passed"


@pytest.fixture
async def two_invocations(reference_agent: StartAgent, tmp_path: Path) -> tuple[Path, str]:
    """The session saved from a live run; the agent keeps running (rerun needs it)."""
    agent = reference_agent()
    run = await record_two_invocations(agent.url, ClientOptions())
    path = tmp_path / "two.session.json"
    save_session(run, ClientOptions(), path)
    return path, agent.url


def test_replay_gives_each_invocation_its_own_verdict(
    two_invocations: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = two_invocations
    assert run_session_cli(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    first, second = out.split("invocation 2 of 2:\n")
    assert first.startswith("invocation 1 of 2:\nsame:")
    assert f"today: {NEGATIVE}" in first and "step 8" not in out
    assert second.startswith("same:") and f"today: {PASSED}" in second


def test_report_gives_each_invocation_its_own_verdict(
    two_invocations: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = two_invocations
    assert run_session_cli(["report", str(path)]) == 0
    report = capsys.readouterr().out
    summary = report.splitlines()[2]
    assert "invocation 1 of 2: NEGATIVE TEST PASSED" in summary
    assert "invocation 2 of 2: PASSED" in summary
    assert "## Steps (invocation 1 of 2)" in report and "## Steps (invocation 2 of 2)" in report
    assert "| 1 | NEGATIVE TEST PASSED | — | — | — | yes |" in report


def test_rerun_re_sends_each_invocation_with_its_own_arguments(
    two_invocations: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = two_invocations
    assert run_session_cli(["rerun", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    outcomes = [(i["invocation"], i["outcome"], i["same"]) for i in report["invocations"]]
    assert outcomes == [(1, "negative_test_passed", True), (2, "passed", True)]
    # Each invocation's invoke answer is compared with its own recorded one only.
    for invocation in report["invocations"]:
        invoke = [b for b in invocation["body_changes"] if b["purpose"] == "invoke"]
        assert all(c["op"] != "removed" for b in invoke for c in b["changes"]), invoke


@pytest.mark.usefixtures("cli_wording")
def test_invocation_n_selects_one_and_a_number_out_of_range_is_a_usage_error(
    two_invocations: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = two_invocations
    assert run_session_cli(["replay", str(path), "--invocation", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(i["invocation"], i["of"]) for i in report["invocations"]] == [(1, 2)]
    assert report["invocations"][0]["outcome"] == "negative_test_passed"
    assert run_session_cli(["report", str(path), "--invocation", "2"]) == 0
    report_text = capsys.readouterr().out
    assert "NEGATIVE TEST" not in report_text.splitlines()[2]
    assert "sia-tui rerun two.session.json --invocation 2" in report_text
    assert run_session_cli(["replay", str(path), "--invocation", "3"]) == 2
    err = capsys.readouterr().err
    assert "--invocation 3: the session holds 2 invocations (1 to 2)" in err
    with pytest.raises(SystemExit):
        run_session_cli(["rerun", str(path), "--invocation", "0"])


def test_the_file_holds_each_invocation_with_its_verdict_and_loads_back(
    two_invocations: tuple[Path, str],
) -> None:
    path, _ = two_invocations
    data = json.loads(path.read_text(encoding="utf-8"))
    listed = [(i["number"], i["outcome"], "run" in i) for i in data["invocations"]]
    assert listed == [(1, "negative_test_passed", True), (2, "passed", False)]
    assert data["outcome"] == "passed"  # the run as it is now: its last invocation
    first, second = load_session(path).run.invocations
    assert first.run.arguments == APPENDIX_B_INVALID_ARGUMENTS and first.run.send_anyway
    assert second.run.arguments == APPENDIX_B_ARGUMENTS and not second.run.send_anyway
    assert (first.run.verdict.outcome.value, second.run.verdict.outcome.value) == (
        "negative_test_passed",
        "passed",
    )
    # Each its own task: the first rejected at step 8, the second with its result.
    assert first.run.task is not None and first.run.task.state == "TASK_STATE_REJECTED"
    assert first.run.result is None and second.run.result is not None
    purposes = [[ex.purpose for ex in i.run.exchanges] for i in (first, second)]
    assert purposes == [["agent card", "describe_skill", "invoke"]] * 2
    assert first.run.exchanges[-1].seq < second.run.exchanges[-1].seq


def test_a_version_3_file_of_two_invocations_loads_and_replays_its_last(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A /3 file keeps only the last invocation's steps; the earlier invoke exchange, which
    no step made, is not served to it (replay exited 1 and blamed the agent)."""
    session = load_session(V3_FILE)
    assert session.format == "sia-session/3" and session.manifest_ok
    assert [i.run.verdict.outcome.value for i in session.run.invocations] == ["passed"]
    assert run_session_cli(["replay", str(V3_FILE)]) == 0
    out = capsys.readouterr().out
    assert f"today: {PASSED}" in out and "invocation" not in out
