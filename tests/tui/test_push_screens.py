"""Push in the TUI: the Invoke screen's Push checkbox registers the loopback receiver, and
the Results screen shows the deliveries beside the stream/poll status, or why none came."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox

from sia_tui.core.run.read_model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)


async def _invoke_with_push(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("2", "r")
    await settle(pilot)
    screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
    screen.action_toggle_push()
    assert screen.query_one("#push", Checkbox).value
    await pilot.press("ctrl+j")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
    await settle(pilot)


async def _push_text_once_completed(pilot: Pilot[Any]) -> str:
    """The Push box once the agent's COMPLETED delivery is on it: deliveries come on their
    own, and the last may reach the screen after Results shows."""
    app = pilot.app
    assert isinstance(app, SiaApp)
    await wait_until(pilot, lambda: "TASK_STATE_COMPLETED" in static_text(app, "#push"), 1000)
    return static_text(app, "#push")


def _app(reference_agent: StartAgent, user_dirs: UserDirs, push: str) -> SiaApp:
    return snapshot_app(Target(reference_agent(push=push).url), dirs=user_dirs)


async def test_push_checkbox_registers_results_show_the_deliveries_and_unchecked_none(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    app = _app(reference_agent, user_dirs, "on")
    async with app.run_test(size=SIZE) as pilot:
        await _invoke_with_push(pilot)
        run = app.current_run
        assert run is not None and run.push is not None and run.push.deliveries
        pane = app.screen.query_one("#push")
        assert pane.display and pane.border_title == "Push (loopback)"
        text = await _push_text_once_completed(pilot)
        assert "received at http://127.0.0.1:PORT/a2a/push" in text
        assert "✔ #1 +T s status TASK_STATE_WORKING: token ok, task ok" in text
        assert "TASK_STATE_COMPLETED" in text
        assert "✘" not in text
        # The next invocation without push (the box unchecked): no push pane on Results. (In
        # this app: a run that used push before must not leave its pane behind.)
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        screen.action_toggle_push()
        assert not screen.query_one("#push", Checkbox).value
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await wait_until(pilot, lambda: len(run.invocations) == 2 and run.verdict.finished)
        await settle(pilot)
        assert not app.screen.query_one("#push").display
        assert app.current_run is not None and app.current_run.push is None


async def test_a_refused_push_says_why_on_results_and_the_run_passes(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    app = _app(reference_agent, user_dirs, "refuse-loopback")
    async with app.run_test(size=SIZE) as pilot:
        await _invoke_with_push(pilot)
        run = app.current_run
        assert run is not None and run.verdict.outcome.value == "passed"
        text = static_text(app, "#push")
        assert "refused" in text and "--push-url URL" in text


def test_results_show_the_push_timeline(
    snap_compare: Any, reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """Results after invoking with Push checked: beside the task line (state COMPLETED, mode
    sync) a box titled 'Push (loopback)' says 'N deliveries received at
    http://127.0.0.1:PORT/a2a/push' and lists the deliveries one a line, newest first, each
    '✔ #n +T s' with its kind (status, artifact), a status's state and 'token ok, task ok,
    N B': #4 TASK_STATE_COMPLETED at the top, #1 TASK_STATE_WORKING last; the result and
    the record below as without push."""
    app = _app(reference_agent, user_dirs, "on")

    async def until_the_last_delivery(pilot: Pilot[Any]) -> None:
        await _invoke_with_push(pilot)
        await _push_text_once_completed(pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=until_the_last_delivery)


async def test_a_delivery_without_the_token_is_counted_apart_in_the_push_box(
    reference_agent: StartAgent, user_dirs: UserDirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another local process posts a fake COMPLETED, without the run's token, to the
    receiver as soon as it listens: the Push box says '1 refused without the run's token',
    and lists only the agent's deliveries, each with a ✔."""
    import httpx

    from sia_tui.core.engine.push import PushChannel

    real_config = PushChannel.config

    async def config_then_intrude(self: PushChannel) -> dict[str, Any]:
        webhook = await real_config(self)
        fake = {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}}}
        async with httpx.AsyncClient(trust_env=False) as client:
            answer = await client.post(webhook["url"], json=fake)
        assert answer.status_code == 401
        return webhook

    monkeypatch.setattr(PushChannel, "config", config_then_intrude)
    app = _app(reference_agent, user_dirs, "on")
    async with app.run_test(size=SIZE) as pilot:
        await _invoke_with_push(pilot)
        run = app.current_run
        assert run is not None and run.push is not None and run.push.refused_count == 1
        text = await _push_text_once_completed(pilot)
        assert "; 1 refused without the run's token" in text
        assert "TASK_STATE_COMPLETED" in text and "✘" not in text
