"""The connect screen's deadline field: the --deadline of the command line, editable."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button, Input

from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
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
        await pilot.press("ctrl+j")
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
        await pilot.press("ctrl+j")
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)  # nothing typed is lost
        assert any("positive number of seconds" in t for t in told)


async def test_oauth2_client_credentials_and_an_api_key_typed_on_connect_are_used(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    """The connect screen has an API key field and the OAuth2 client id, a masked secret,
    scopes and token URL, as the command line's flags; its Connect key is ctrl+j (the
    button says so), ctrl+s does not connect, and no secret reaches the recent targets."""
    agent = reference_agent()
    app = snapshot_app(dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        assert "ctrl+j" in str(screen.query_one("#go", Button).label)
        fields = {
            "#location": agent.url,
            "#api-key": "key-0123456789",
            "#oauth2-id": "client-7",
            "#oauth2-secret": "s3cret-0123456789",
            "#oauth2-scopes": "read write",
            "#oauth2-token-url": "http://127.0.0.1:9/token",
        }
        for selector, value in fields.items():
            screen.query_one(selector, Input).value = value
        assert screen.query_one("#oauth2-secret", Input).password
        assert screen.query_one("#api-key", Input).password
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen  # ctrl+s saves elsewhere; here it connects nothing
        await pilot.press("ctrl+j")
        await settle(pilot)
        assert app.options.api_key == "key-0123456789"
        assert app.options.oauth2 == OAuth2Settings(
            "client-7", "s3cret-0123456789", ("read", "write"), "http://127.0.0.1:9/token"
        )
    remembered = "\n".join(user_dirs.recent_targets())
    assert "s3cret" not in remembered and "key-0123" not in remembered


async def test_half_filled_oauth2_credentials_are_refused_with_what_is_missing(
    user_dirs: UserDirs,
) -> None:
    app = snapshot_app(dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        told = record_notices(app)
        app.screen.query_one("#location", Input).value = "http://127.0.0.1:9"
        app.screen.query_one("#oauth2-id", Input).value = "client-7"
        await pilot.press("ctrl+j")
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)  # nothing typed is lost
        assert any("need both the client id and its secret" in t for t in told), told
