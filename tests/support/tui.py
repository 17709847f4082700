"""Driving the TUI in Pilot tests: sizes, settling, entering arguments, notices."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.model import Run, Target
from sia_tui.core.engine.procedure import Procedure
from sia_tui.tui.app import SiaApp
from sia_tui.tui.engine import UpdateCallback
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor

#: The draft's Appendix B arguments (WIRE.md).
APPENDIX_B_TEXT = """{
  "resource_id": "network-resource-123",
  "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"}
}"""


SIZE = (120, 36)


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the engine and every pending timer/worker have finished."""
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    # Toasts are transient; they would hide what a snapshot is about.
    pilot.app.clear_notifications()
    await pilot.pause()


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], tries: int = 200) -> None:
    """Pause in small steps until ``condition`` holds (fails the test if it never does)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
        await pilot.app.workers.wait_for_complete()
    assert condition(), "condition never became true"


def static_text(app: SiaApp, selector: str) -> str:
    """The plain text a Static currently shows."""
    return str(app.screen.query_one(selector, Static).visual)


async def enter_arguments(pilot: Any, text: str) -> InvokeScreen:
    """Go to the editor, replace its text, and wait for the live validation."""
    await pilot.press("5")
    screen = pilot.app.screen
    assert isinstance(screen, InvokeScreen)
    await wait_until(pilot, lambda: not screen.query_one(ArgumentEditor).read_only)
    before = screen.last_result
    screen.query_one(ArgumentEditor).load_text(text)
    await wait_until(pilot, lambda: screen.last_result is not before)
    return screen


async def invoke_appendix_b(pilot: Any) -> None:
    """Run steps 1-6, enter the Appendix B arguments, invoke, and wait on Results."""
    await pilot.press("2", "r")
    await settle(pilot)
    await enter_arguments(pilot, APPENDIX_B_TEXT)
    await pilot.press("ctrl+j")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
    await settle(pilot)


def record_notices(app: SiaApp) -> list[str]:
    """Every notification message the app shows from now on (toasts fade; this keeps them)."""
    told: list[str] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        told.append(str(message))
        notify(message, **options)

    # A test double on this one instance; mypy forbids assigning to a method in general.
    app.notify = recording  # type: ignore[method-assign]
    return told


def no_network(target: Target, options: ClientOptions, on_update: UpdateCallback) -> Any:
    """An engine factory that fails the test if the app ever tries to build a client."""
    raise AssertionError(f"a read-only session tried to reach {target.location}")


async def record_run(url: str) -> Run:
    """Run steps 1-6 against ``url`` with the real engine (no UI)."""
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()
