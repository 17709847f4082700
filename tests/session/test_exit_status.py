"""replay, rerun and report exit with the worst verdict of the session (README: "exit status
the worst"), and their --help says so, as check --help does."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sia_tui.cli.parser import run as cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session import FORMAT, save_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import record_live


async def _passed_then_failed(url: str) -> Run:
    """Two invocations: the first passes, the second fails at step 7 (not sent)."""
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    try:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        await procedure.run_all()
        procedure.set_arguments({"resource_id": 7})
        return await procedure.run_all()
    finally:
        await procedure.aclose()


@pytest.fixture
def failed_session(reference_agent: StartAgent, tmp_path: Path) -> Path:
    run = asyncio.run(_passed_then_failed(reference_agent().url))
    assert [each.run.verdict.outcome.value for each in run.invocations] == ["passed", "failed"]
    path = tmp_path / "failed.session.json"
    save_session(run, ClientOptions(), path)
    return path


def test_replay_rerun_and_report_of_a_failed_invocation_exit_1(
    failed_session: Path, capsys: pytest.CaptureFixture[str], log_redaction: None
) -> None:
    assert cli(["replay", str(failed_session)]) == 1
    out = capsys.readouterr().out
    assert "invocation 2 of 2:" in out and "today: FAILED at step 7" in out
    assert cli(["rerun", str(failed_session)]) == 1
    assert "invocation 2 of 2: still reproduces" in capsys.readouterr().out
    assert cli(["report", str(failed_session)]) == 1
    assert cli(["report", str(failed_session), "--invocation", "1"]) == 0  # the one that passed
    assert cli(["replay", str(failed_session), "--invocation", "1"]) == 0


def test_a_session_still_waiting_for_arguments_replays_incomplete(
    reference_agent: StartAgent, tmp_path: Path, log_redaction: None
) -> None:
    run = asyncio.run(record_live(reference_agent().url, ClientOptions()))  # no arguments
    path = tmp_path / "incomplete.session.json"
    save_session(run, ClientOptions(), path)
    assert cli(["replay", str(path)]) == 3
    assert cli(["report", str(path)]) == 3


@pytest.mark.parametrize("command", ["replay", "rerun", "report"])
def test_help_states_the_exit_codes_and_the_formats_read(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"sia-session/1 to /{FORMAT.rpartition('/')[2]}" in text
    for code in ("Exit 0:", "1:", "2:", "3:"):
        assert code in text or code.lower() in text, code
    assert "the exit status is the worst" in text
