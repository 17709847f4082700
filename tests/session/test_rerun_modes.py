"""Rerun re-sends each invocation in the mode it was recorded in, and a difference in mode
is never "as recorded"."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session import load_session, save_session
from sia_tui.core.session.rerun import compare_rerun
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import run_session_cli

MODES = ("sync", "stream", "sync")


async def _record_modes(url: str) -> Run:
    """Three invocations, as the TUI sends them: the mode is chosen (f8), then the
    arguments are sent (ctrl+j), which keeps the invocation before."""
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    try:
        for mode in MODES:
            procedure.set_mode(mode)
            procedure.set_arguments(APPENDIX_B_ARGUMENTS)
            await procedure.run_all()
        return procedure.run
    finally:
        await procedure.aclose()


@pytest.fixture
def session_file(reference_agent: StartAgent, tmp_path: Path) -> Path:
    agent = reference_agent()
    run = asyncio.run(_record_modes(agent.url))
    assert [each.run.mode for each in run.invocations] == list(MODES)
    path = tmp_path / "modes.json"
    save_session(run, ClientOptions(), path)
    return path


def test_rerun_sends_each_invocation_in_its_own_recorded_mode(
    session_file: Path, capsys: pytest.CaptureFixture[str], log_redaction: None
) -> None:
    assert run_session_cli(["rerun", str(session_file), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    modes = [(each["recorded_mode"], each["mode"]) for each in report["invocations"]]
    assert modes == [(mode, mode) for mode in MODES]

    assert run_session_cli(["rerun", str(session_file)]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("invocation")] == [
        f"invocation {n} of 3: still passes, as recorded" for n in (1, 2, 3)
    ], out


def test_a_rerun_in_another_mode_is_a_change_not_as_recorded(session_file: Path) -> None:
    [first, second, _] = load_session(session_file).run.invocations
    other = dataclasses.replace(first.run, mode="stream")  # today's run of #1, streamed
    result = compare_rerun(first, other)
    assert not result.same
    assert result.headline().startswith("changed: mode: sync recorded, stream today")
    assert "as recorded" not in compare_rerun(second, first.run).headline()
