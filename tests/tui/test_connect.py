"""The connect screen's deadline field: the --deadline of the command line, editable."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.tui.screens.connect import ConnectScreen
from sia_tui.tui.storage import UserDirs
from tests.support.tui import SIZE, record_notices, settle, snapshot_app


async def test_the_deadline_typed_on_connect_bounds_the_run(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    agent = reference_agent()
    app = snapshot_app(options=ClientOptions(deadline=45.0), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        deadline = app.screen.query_one("#deadline", Input)
        assert deadline.value == "45"  # the command line's --deadline
        app.screen.query_one("#location", Input).value = agent.url
        deadline.value = "7.5"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.engine is not None
        assert app.engine.options.deadline == 7.5  # type: ignore[attr-defined]


async def test_a_deadline_that_is_not_a_positive_number_is_refused(user_dirs: UserDirs) -> None:
    app = snapshot_app(dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        told = record_notices(app)
        app.screen.query_one("#location", Input).value = "http://127.0.0.1:9"
        app.screen.query_one("#deadline", Input).value = "-3"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)  # nothing typed is lost
        assert any("positive number of seconds" in t for t in told)
