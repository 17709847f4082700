"""Results after a cancel still shows the record the person watched arrive.

The streaming skill sends probe-1; the person presses x. Results used to show probe-1
while the task ran, then "No supporting records." once it ended cancelled.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from sia_tui.core.run.read_model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.tui import send_link_check, settle, snapshot_app, static_text, wait_until

#: A large terminal: the records pane shows the record's data whole.
LARGE = (140, 40)


def link_check_app(reference_agent: StartAgent, user_dirs: UserDirs) -> SiaApp:
    """The app on the reference agent's streaming skill (probe-1 first, the result later)."""
    agent = reference_agent(step_delay=1.0)
    target = Target(agent.url, skill_id="check_link_capacity", mode="stream")
    return snapshot_app(target, dirs=user_dirs)


async def cancel_after_the_record(pilot: Pilot[Any]) -> None:
    """Send the link check, watch probe-1 arrive on Results, press x, wait for the end."""
    app = pilot.app
    assert isinstance(app, SiaApp)
    await send_link_check(pilot)
    # Not wait_until: it waits for the engine worker, i.e. for the task to end.
    for _ in range(1500):
        if "probe-1" in static_text(app, "#records-body"):
            break
        await pilot.pause(0.02)
    assert "probe-1" in static_text(app, "#records-body")  # the person sees it arrive
    await pilot.press("x")
    run = app.current_run
    assert run is not None
    await wait_until(pilot, lambda: run.steps[8].status.value == "cancelled")
    await settle(pilot)


async def test_the_record_stays_on_results_after_x(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """After x, Results still lists probe-1 with its data, marked as received before the
    task was cancelled and not checked; never "No supporting records.", never valid."""
    app = link_check_app(reference_agent, user_dirs)
    async with app.run_test(size=LARGE) as pilot:
        await cancel_after_the_record(pilot)
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "⊗ CANCELLED" in status
    assert "No supporting records." not in records
    assert "received before the task was cancelled; not checked" in records
    assert "probe-1  link-probe" in records and '"capacity_mbps"' in records
    assert "valid against its record schema" not in records


def test_snapshot_results_after_cancelling_a_streamed_record(
    snap_compare: Any, reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """Results at 140x40 after x cancelled the link check once probe-1 had arrived: the
    status says the task is TASK_STATE_CANCELED and "⊗ CANCELLED: the task was cancelled as
    asked"; the result pane says there is no result (the task ended cancelled); the records
    pane reads, in muted italics, "received before the task was cancelled; not checked: step
    10 did not run", then "probe-1  link-probe" and the record's JSON (capacity_mbps,
    load_mbps, probed_at), with no valid/invalid verdict."""
    app = link_check_app(reference_agent, user_dirs)
    assert snap_compare(app, terminal_size=LARGE, run_before=cancel_after_the_record)
