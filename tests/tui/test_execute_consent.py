"""The TUI asks before every invocation of a skill that may act (RULES SID5).

The engine stops before step 8 until the user says yes for that one send; the app asks
whichever key got there: ctrl+j on Invoke, ``r`` (run all) and ``n`` (next step) on Steps.
``R`` (restart) keeps no arguments: ``r`` after it runs steps 1-6 and asks nothing, and the
next ctrl+j asks again. "No" sends nothing and leaves the run incomplete. The agent's
side is the witness: what reached it, not what the app recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from sia_tui.core.run.read_model import Step, StepStatus, Target
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from tests.support.tui import (
    SIZE,
    enter_arguments,
    press,
    record_notices,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)
from tests.support.witness import Witness, witnessed_agent

SHUTDOWN = "apply_interface_shutdown"
VALID = json.dumps({"device_id": "edge-router-7", "interface_name": "ge-0/0/1"})


@pytest.fixture
def agent() -> Iterator[Witness]:
    with witnessed_agent() as witness:
        yield witness


def _app(agent: Witness, user_dirs: UserDirs) -> SiaApp:
    return snapshot_app(Target(agent.url, skill_id=SHUTDOWN), dirs=user_dirs)


async def _invoke_and_confirm(pilot: Any, agent: Witness) -> None:
    """Steps 1-6, valid arguments, ctrl+j, then y in the dialog: one invocation sent."""
    await press(pilot, "2", "r")
    await enter_arguments(pilot, VALID)
    await pilot.press("ctrl+j")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    assert agent.count(SHUTDOWN) == 0  # asked before anything was sent
    await pilot.press("y")
    await wait_until(pilot, lambda: agent.count(SHUTDOWN) == 1)
    await settle(pilot)


async def test_restart_keeps_no_arguments_and_the_next_invocation_asks_again(
    agent: Witness, user_dirs: UserDirs
) -> None:
    """Confirmed once; then 2, R, r: steps 1-6 only, nothing asked, nothing sent (R keeps no
    arguments). ctrl+j sends the editor's text again: a new invocation, a new question.
    "No" sends nothing and the run is incomplete, with the reason."""
    app = _app(agent, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _invoke_and_confirm(pilot, agent)
        first = app.current_run
        assert first is not None and first.verdict.outcome is RunOutcome.PASSED
        await press(pilot, "2", "R", "r")
        run = app.current_run
        assert run is not None and run is not first
        assert run.verdict.waiting_for_arguments and run.next_step == Step.ARGUMENTS
        assert not isinstance(app.screen, ConfirmScreen)  # nothing to send: no question
        assert agent.count(SHUTDOWN) == 1
        await press(pilot, "5")
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        told = record_notices(app)
        await pilot.press("n")
        await settle(pilot)
        assert agent.count(SHUTDOWN) == 1  # the second invocation never reached the agent
        assert app.current_run is run
        assert run.step(Step.ARGUMENTS).status is StepStatus.PASSED
        assert run.step(Step.DELEGATION).status is StepStatus.NOT_RUN
        assert run.verdict.outcome is RunOutcome.INCOMPLETE
        assert "not sent" in run.verdict.headline
        assert any("Nothing was sent" in notice for notice in told)
        await press(pilot, "2")
        steps = app.screen
        assert isinstance(steps, StepsScreen)
        steps.select_step(8)  # step 8's pane says why it sent nothing, and how to consent
        await pilot.pause()
        pane = static_text(app, "#evidence-body")
        assert "the invocation was not sent" in pane and "the TUI asks before it sends" in pane
        assert "--allow-execute" not in pane  # a flag the TUI's user cannot pass
        # Asked again on the next r: a "no" is not remembered as a yes either.
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: agent.count(SHUTDOWN) == 2)
        await settle(pilot)
        assert app.current_run is run and run.verdict.headline.startswith("PASSED")


async def test_next_step_asks_at_step_8(agent: Witness, user_dirs: UserDirs) -> None:
    """Step by step with n: the steps stop at 7 (no arguments) without asking; once
    arguments wait at step 8 (ctrl+j, then "no"), the n that would send asks first. (That R
    keeps no arguments, and that the question comes again after a yes, the test above shows
    with r and ctrl+j: n reaches the same gate, so this one starts from a fresh app.)"""
    app = _app(agent, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "2")
        for _ in range(6):
            await press(pilot, "n")
        run = app.current_run
        assert run is not None and run.next_step == Step.ARGUMENTS
        assert not isinstance(app.screen, ConfirmScreen)  # nothing to send: no question
        await enter_arguments(pilot, VALID)
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await settle(pilot)
        assert run.next_step == Step.DELEGATION and agent.count(SHUTDOWN) == 0
        await press(pilot, "2", "n")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        assert agent.count(SHUTDOWN) == 1
        assert run.step(Step.DELEGATION).status is StepStatus.PASSED
        assert run.step(Step.RECEPTION).status is StepStatus.NOT_RUN  # n ran one step


async def test_the_question_says_why_and_that_it_is_no_authorization(
    agent: Witness, user_dirs: UserDirs
) -> None:
    app = _app(agent, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "2", "r")
        await enter_arguments(pilot, VALID)
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        text = dialog.question.plain
        assert text.startswith(f"{SHUTDOWN} may act: the document declares execute authority")
        assert "approval may be required" in text and "does not authorize it" in text
        await pilot.press("escape")
        await settle(pilot)
        assert agent.count(SHUTDOWN) == 0
