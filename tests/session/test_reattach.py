"""Reattach from History: SubscribeToTask on the task a recorded run left running, read-only
(nothing but the subscription is sent, and no credential)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Step, Target
from sia_tui.core.session import load_session, reattach_task, save_session
from sia_tui.core.task_state import TaskState
from tests.support.agents import StartAgent

SECRET = "reattach-s3cr3t-token"


async def saved_while_running(url: str, folder: Path, *, stop_at: Step) -> Path:
    """The long-running skill sent in stream mode, the session saved at ``stop_at``."""
    options = ClientOptions(bearer=SECRET)
    procedure = Procedure(Target(url, skill_id="check_link_capacity", mode="stream"), options)
    procedure.use_example()
    try:
        await procedure.run_until(stop_at)
        path = folder / "running.session.json"
        save_session(procedure.run, options, path)
    finally:
        await procedure.aclose()
    return path


async def test_a_running_task_is_followed_to_its_end_without_credentials(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    agent = reference_agent(step_delay=0.2)
    session = load_session(await saved_while_running(agent.url, tmp_path, stop_at=Step.DELEGATION))
    assert session.run.task is not None and not session.run.task.terminal
    seen: list[str] = []
    followed = await reattach_task(session, on_event=lambda e: seen.append(e.kind))
    assert followed.error is None
    assert seen[0] == "task"  # the first event of SubscribeToTask is the Task snapshot
    assert followed.events[-1].state == TaskState.COMPLETED and followed.events[-1].final
    [call] = followed.exchanges
    assert call.purpose == "reattach"
    sent = " ".join(f"{k}: {v}" for k, v in call.request_headers)
    assert SECRET not in sent and "authorization" not in sent.lower()
    assert b"SubscribeToTask" in call.request_body and b"SendMessage" not in call.request_body


async def test_a_finished_task_is_not_reattached(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    agent = reference_agent()
    session = load_session(
        await saved_while_running(agent.url, tmp_path, stop_at=Step.PRESENTATION)
    )
    followed = await reattach_task(session)
    assert followed.error is not None and "ended TASK_STATE_COMPLETED" in followed.error
    assert followed.exchanges == []  # nothing was sent


async def test_a_task_that_ended_since_it_was_recorded_is_said_so(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """Saved while running, reattached after it ended: the agent answers UnsupportedOperation
    (A2A 1.0), and the error says the task has ended, with its final state."""
    agent = reference_agent(step_delay=0.05)
    session = load_session(await saved_while_running(agent.url, tmp_path, stop_at=Step.DELEGATION))
    assert session.run.task is not None and not session.run.task.terminal
    await asyncio.sleep(1.0)  # the long-running skill ends (three agent steps)
    followed = await reattach_task(session)
    assert followed.error is not None, followed.events
    assert followed.error.startswith(
        "the task has ended (TASK_STATE_COMPLETED) since the run was recorded"
    )
    assert "UnsupportedOperation" in followed.error
    assert [ex.purpose for ex in followed.exchanges] == ["reattach", "reattach"]
