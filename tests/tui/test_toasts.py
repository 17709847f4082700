"""Toasts as a person sees them: one per kind (a newer one replaces the older), none left
saying what is no longer true. None over a table's key column at 80x24: checked in
test_small_terminals.py, on its walk over every screen after an invocation."""

from __future__ import annotations

from typing import Any

from textual.app import App

from sia_tui.tui.screens.results import ResultsScreen
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    settle,
    wait_until,
    workers_done,
)


def toasts(app: App[Any]) -> list[str]:
    """The text of every toast on screen (title and message), top to bottom."""
    shown = sorted(app.screen.query("Toast"), key=lambda t: t.region.y)
    return [str(toast.render()) for toast in shown]


async def shown(pilot: Any) -> None:
    """Let the toasts reach the screen (without clearing them, as ``settle`` does)."""
    await workers_done(pilot.app)
    for _ in range(3):
        await pilot.pause()


async def test_waiting_for_arguments_is_said_once_and_sending_n_of_n_goes_once_sent(
    make_app: Any,
) -> None:
    """Steps 1-6 done, n pressed three times: one "Waiting for arguments" toast, not three.
    Then three invocations: when the third has its verdict on Results, no toast still says
    "Sending invocation …", and none says the run waits for arguments. (One app: the
    invocations follow the n presses as a person's session goes on.)"""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        for _ in range(3):
            await pilot.press("n")
            await shown(pilot)
        waiting = [t for t in toasts(app) if "Waiting for arguments" in t]
        assert len(waiting) == 1, toasts(app)
        for _ in range(3):
            await enter_arguments(pilot, APPENDIX_B_TEXT)
            await pilot.press("ctrl+j")
            await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
            await wait_until(
                pilot, lambda: app.current_run is not None and app.current_run.verdict.finished
            )
            await shown(pilot)
        run = app.current_run
        assert run is not None and len(run.invocations) == 3
        assert not [t for t in toasts(app) if "Sending invocation" in t], toasts(app)
        assert not [t for t in toasts(app) if "Waiting for arguments" in t], toasts(app)
