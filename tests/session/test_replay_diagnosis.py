"""Replay compares each step's diagnosis, and ends an exchange the way it ended live.

A body cut by our own size limit was replayed as if the agent had sent the cut bytes ("not
usable: unterminated string"), a timeout as a refused connection ("could not be reached"),
and replay still said "same": it compared step statuses only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import Run
from sia_tui.core.session import save_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.sessions import record_live, run_session_cli

#: Small limits keep the faults quick: a 64 KiB cut instead of 8 MiB, a 1.5 s read timeout
#: against the agent's 5 s delay, room enough for a loaded machine to fetch the prompt card
#: (the recorded options are the ones replay uses again).
HUGE = ClientOptions(max_response_bytes=64 * 1024)
SLOW = ClientOptions(read_timeout=1.5, total_timeout=3.0)
SLOW_AGENT = {"slow_seconds": 5.0}
#: The run's deadline passes while describe_skill waits (the read timeout would not).
DEADLINE = ClientOptions(read_timeout=10.0, deadline=1.0)


async def _saved(
    reference_agent: StartAgent, tmp_path: Path, fault: str, options: ClientOptions
) -> tuple[Path, Run]:
    agent = reference_agent(fault=fault, **(SLOW_AGENT if fault == "slow" else {}))
    run = await record_live(agent.url, options, arguments=APPENDIX_B_ARGUMENTS)
    path = tmp_path / f"{fault}.session.json"
    save_session(run, options, path)
    agent.stop()  # replay needs no agent
    return path, run


# The live run and `sia-tui replay` word what the user can change alike: as the CLI does.
@pytest.mark.usefixtures("cli_wording")
@pytest.mark.parametrize(
    ("fault", "options", "step", "error_kind"),
    [
        ("huge", HUGE, 8, "response_too_large"),
        ("slow", SLOW, 3, "timeout"),
        ("slow", DEADLINE, 3, "deadline_exceeded"),
    ],
)
async def test_replay_reaches_the_live_diagnosis_of_a_cut_or_timed_out_answer(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fault: str,
    options: ClientOptions,
    step: int,
    error_kind: str,
) -> None:
    path, live = await _saved(reference_agent, tmp_path, fault, options)
    failed = live.failed_step
    assert failed is not None and (failed.step, failed.error_kind) == (step, error_kind)
    code = await _cli(["replay", str(path)])
    out = capsys.readouterr().out
    assert code == 1, out  # the diagnosis as recorded, and so the recorded failure
    assert f"today: {live.verdict.headline}\n" in out  # not "unterminated string", not "reached"


async def test_a_changed_diagnosis_with_the_same_status_is_a_change(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Recorded as a timeout, replayed as the size limit: both "failed", not the same."""
    path, _ = await _saved(reference_agent, tmp_path, "huge", HUGE)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["run"]["steps"][7]["error_kind"] = "timeout"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert await _cli(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "step 8 Delegate the task: recorded failed (transport, timeout; at fault: limit), "
        "today failed (transport, response_too_large; at fault: limit)"
    ) in out


async def _cli(argv: list[str]) -> int:
    """The command in a thread: it runs its own event loop (asyncio.run)."""
    import asyncio

    return await asyncio.to_thread(run_session_cli, argv)
