"""The TUI stays responsive while a hostile agent floods it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from textual import events

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import StepStatus, Target
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from tests.hostile.honest import SKILL
from tests.hostile.measure import serving
from tests.support.tui import APPENDIX_B_TEXT, SIZE, enter_arguments, settle, snapshot_app


async def test_a_key_pressed_during_a_stream_flood_changes_the_screen(tmp_path: Path) -> None:
    """Tens of thousands of WORKING updates a second; pressing 2 still shows the Steps
    screen while step 9 is receiving them (how long the key takes is a figure of the
    machine: ``benchmarks/tui_flood_key.py`` prints it)."""
    await key_during_flood(tmp_path)


async def key_during_flood(tmp_path: Path) -> float:
    """Press 2 on the Results screen of a flooded stream: the seconds until the Steps
    screen showed (measured, never asserted: the benchmark prints it)."""
    with serving("sse-working-flood") as server:
        app = snapshot_app(
            Target(server.url, skill_id=SKILL, mode="stream"),
            # Room for a long flood: the size limit would otherwise end it within a second.
            ClientOptions(deadline=20.0, max_response_bytes=256 * 1024 * 1024),
            dirs=UserDirs(tmp_path / "config", tmp_path / "data"),
        )
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("2", "r")
            await settle(pilot)
            await enter_arguments(pilot, APPENDIX_B_TEXT)
            await pilot.press("ctrl+j")
            run = app.current_run
            assert run is not None
            # Not pilot helpers: they wait for workers or an idle CPU, which a flood never gives.
            while len(run.stream_events) < 20_000 or not isinstance(app.screen, ResultsScreen):
                await asyncio.sleep(0.01)
            posted = time.perf_counter()
            app.post_message(events.Key("2", "2"))
            while not isinstance(app.screen, StepsScreen):
                # A key queued behind the flood's redraws is handled only once it ends.
                assert run.steps[8].status is StepStatus.RUNNING, "the key waited for the flood"
                await asyncio.sleep(0.01)
            assert run.steps[8].status is StepStatus.RUNNING  # the flood is still going on
            return time.perf_counter() - posted
