"""Driving the TUI in Pilot tests: sizes, settling, entering arguments, notices."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widgets import Select, Static
from textual.worker import WorkerCancelled

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Task
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, StepResult, StepStatus, Target
from sia_tui.core.session import load_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.engine_port import UpdateCallback
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.blocks_view import BlocksView

#: The draft's Appendix B arguments (WIRE.md).
APPENDIX_B_TEXT = """{
  "resource_id": "network-resource-123",
  "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"}
}"""


SIZE = (120, 36)
#: A small terminal (a laptop split at a plugfest): every screen must fit it.
SMALL = (80, 24)

#: Values that change from run to run, hidden in snapshots (the app never hides them itself).
_VOLATILE = (
    (re.compile(r"(127\.0\.0\.1|localhost):\d+"), r"\1:PORT"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<uuid>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"), "<time>"),
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"), "<time>"),
    # A push delivery's arrival, in seconds since the receiver started.
    (re.compile(r"\+\d+\.\d\d s\b"), "+T s"),
    (re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d \w{3} \d{4} [\d:]{8} GMT"), "<date>"),
    # The W3C trace of a run (a random id per run, per exchange) and an agent's echo of it.
    (re.compile(r"\b00-[0-9a-f]{32}-[0-9a-f]{16}-01\b"), "00-<trace-id>-<span-id>-01"),
    (re.compile(r'(traceId": ")[0-9a-f]{32}'), r"\1<trace-id>"),
)


def snapshot_scrub(text: str) -> str:
    """``text`` with ports, task ids and clocks replaced, so snapshots are stable."""
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def snapshot_app(*args: Any, **kwargs: Any) -> SiaApp:
    """A ``SiaApp`` that draws the same screen every run: volatile values scrubbed (through
    the display policy's test seam) and no blinking cursor (reduced motion)."""
    app = SiaApp(*args, scrub=snapshot_scrub, **kwargs)
    app.animation_level = "none"
    return app


async def workers_done(app: Any) -> None:
    """Wait for every worker; one that a newer exclusive worker replaced is done too."""
    for _ in range(10):
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            continue  # by design (exclusive workers): wait for the ones still running


def _workers_running(app: Any) -> bool:
    return any(not worker.is_finished for worker in app.workers)


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the engine and every worker have finished (not timers: the editor's
    check is shown once its debounce passes; wait for ``last_result`` to see it)."""
    for _ in range(3):
        await workers_done(pilot.app)
        await pilot.pause()
        # A finished worker may have started another (results -> verdicts): wait for it
        # too. Nothing running after a pause: done (each pause is 20 ms to 1 s of idling).
        if not _workers_running(pilot.app):
            break
    # Toasts are transient; they would hide what a snapshot is about.
    pilot.app.clear_notifications()
    await pilot.pause()


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Settle, then press each key and settle after it (a person waits to see each screen)."""
    await settle(pilot)
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def terminal_paste(pilot: Pilot[Any], text: str) -> None:
    """Paste ``text`` as Textual delivers a terminal's bracketed paste (``ESC [200~ ...
    ESC [201~``): one ``Paste`` event to the focused widget, then settle. The bytes
    themselves go through a real terminal in tests/e2e."""
    pilot.app.post_message(events.Paste(text))
    await settle(pilot)


async def hold_a_running_step(pilot: Pilot[Any], engine: GatedEngine) -> None:
    """Start step 2 on a gated engine and keep it running (``engine.gate.set()`` ends it)."""
    await settle(pilot)
    engine.hold = True
    await pilot.press("2", "n")
    await wait_until(pilot, lambda: engine.run.steps[1].status is StepStatus.RUNNING)


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], tries: int = 200) -> None:
    """Pause in small steps until ``condition`` holds (fails the test if it never does)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
        await workers_done(pilot.app)
    assert condition(), "condition never became true"


def static_text(app: SiaApp, selector: str) -> str:
    """The plain text a Static (or a BlocksView, as far as it is formatted) currently shows."""
    widget = app.screen.query_one(selector)
    if isinstance(widget, BlocksView):
        return widget.plain_text
    assert isinstance(widget, Static)
    return str(widget.visual)


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


#: The long-running, cancellable skill's arguments (Target skill ``check_link_capacity``).
LINK_CHECK_TEXT = '{"link_id": "link-7", "required_mbps": 400}'


async def send_link_check(pilot: Any) -> None:
    """Steps 1-6 of the target's skill (check_link_capacity), its arguments, ctrl+j; does
    not wait for the task (a test may cancel it while it runs or waits)."""
    await settle(pilot)
    await pilot.press("2", "r")
    await settle(pilot)
    await enter_arguments(pilot, LINK_CHECK_TEXT)
    await pilot.press("ctrl+j")


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


async def send_on_console(
    pilot: Pilot[Any], text: str, *, part: str = "text", mode: str = "sync"
) -> None:
    """On the console: the part kind, the mode and the text; ctrl+j; wait for the reply."""
    app = pilot.app
    assert isinstance(app, SiaApp)
    screen = app.screen
    screen.query_one("#part", Select).value = part
    screen.query_one("#mode", Select).value = mode
    screen.query_one(ArgumentEditor).load_text(text)
    await pilot.press("ctrl+j")
    await wait_until(pilot, lambda: app.console_state.reply is not None)
    await settle(pilot)


def read_only_app(path: Path, dirs: UserDirs) -> SiaApp:
    """The app on a saved session, read-only, failing the test if it tries the network."""
    return snapshot_app(None, session=load_session(path), engine_factory=no_network, dirs=dirs)


async def record_run(url: str) -> Run:
    """Run steps 1-6 against ``url`` with the real engine (no UI)."""
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


class GatedEngine:
    """A fake engine whose steps wait at a gate while ``hold`` is set (no network)."""

    def __init__(self, target: Target) -> None:
        self.run = Run(target)
        self.hold = False
        self.gate = asyncio.Event()
        self.calls: list[str] = []

    async def step(self) -> StepResult | None:
        self.calls.append("step")
        result = self.run.steps[(self.run.next_step or 1) - 1]
        result.status = StepStatus.RUNNING
        if self.hold:
            await self.gate.wait()
        result.status = StepStatus.PASSED
        return result

    async def run_all(self) -> Run:
        self.calls.append("run_all")
        return self.run

    async def run_until(self, last: int) -> Run:
        return self.run

    async def restart(self) -> None:
        self.calls.append("restart")
        self.run = Run(self.run.target)

    def set_arguments(self, arguments: Any, *, send_anyway: bool = False) -> None:
        self.calls.append("set_arguments")

    def consent_to_send(self) -> None:
        self.calls.append("consent_to_send")

    def select_skill(self, skill_id: str) -> None:
        """Nothing to select in the fake."""

    def set_mode(self, mode: str | None) -> None:
        """Nothing to choose in the fake."""

    def set_push(self, push: str | None) -> None:
        """No push in the fake."""

    async def list_tasks(self, page_token: str | None = None) -> Any:
        raise AssertionError("the gated engine lists no tasks")

    async def cancel(self) -> Task | None:
        return None

    async def console(self, request: Any, on_event: Any = None, *, consent: bool = False) -> Any:
        raise AssertionError("the gated engine has no console")

    async def aclose(self) -> None:
        """No client to close."""


def gated_app(
    user_dirs: UserDirs, engine: type[GatedEngine] = GatedEngine
) -> tuple[SiaApp, list[GatedEngine]]:
    """An app over a GatedEngine (or ``engine``), and the list the engine it builds is put in."""
    built: list[GatedEngine] = []

    def factory(target: Target, options: ClientOptions, on_update: UpdateCallback) -> Any:
        built.append(engine(target))
        return built[-1]

    return snapshot_app(Target("fake-card.json"), engine_factory=factory, dirs=user_dirs), built
