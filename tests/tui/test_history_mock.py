"""History: ``m`` serves a saved run's session as a mock agent and shows its address.

A person picks an autosaved run in History (7), presses m, reads the address below the
table, points a client at it (here the engine, as ``sia-tui check`` would) and gets the
recorded verdict back with the agent stopped; m again stops the mock.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import Target
from sia_tui.core.session import history
from sia_tui.tui.screens.history import HistoryMode
from sia_tui.tui.storage import UserDirs
from tests.support.tui import record_run, settle, snapshot_app, static_text, wait_until


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_m_serves_the_selected_run_as_a_mock_and_shows_its_address(
    reference_agent: Any, user_dirs: UserDirs, size: tuple[int, int]
) -> None:
    agent = reference_agent(fault="digest-card")
    recorded = await record_run(agent.url)
    history.autosave(recorded, ClientOptions())
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        agent.stop()  # only the mock answers from here on
        await pilot.press("7")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoryMode)
        # The app's own run is the newest entry; the one recorded before is the last.
        await pilot.press(*["down"] * (len(screen.entries) - 1), "m")
        await wait_until(pilot, lambda: screen.mock is not None)
        await settle(pilot)
        shown = static_text(app, "#history-mock")
        assert screen.mock is not None
        url = screen.mock.url
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url), url
        assert (  # the test app shows every port as PORT (snapshots stay the same)
            "Mock of evaluate_resource_condition at sia-tui reference agent serving at "
            "http://127.0.0.1:PORT" in shown
        ), shown
        today = await record_run(url)  # a client pointed at the address
        assert today.failed_step is not None and recorded.failed_step is not None
        assert (today.failed_step.step, today.failed_step.code) == (
            recorded.failed_step.step,
            recorded.failed_step.code,
        )
        await pilot.press("m")  # stops it
        await settle(pilot)
        assert screen.mock is None and "Mock stopped." in static_text(app, "#history-mock")
        with pytest.raises(httpx.ConnectError):
            httpx.get(url + "/.well-known/agent-card.json", timeout=5)
