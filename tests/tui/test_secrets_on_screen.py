"""Credentials never reach the screen or the TUI's data files (RULES SR7).

The header bar never shows a URL password; credential values an agent echoes back are
masked on every screen, as the reports redact them; recent.json and edits/<hash>.json never
hold ``user:password@``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a import ClientOptions
from sia_tui.core.engine import Procedure
from sia_tui.core.run import Target
from sia_tui.tui import exports
from sia_tui.tui.display import MASK
from sia_tui.tui.engine_port import UpdateCallback
from sia_tui.tui.storage import UserDirs
from tests.support.scripted_agent import BASE, ScriptedAgent, artifact, task
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    press,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)

API_KEY = "canary-api-key-5c1e7f"
BEARER = "canary-bearer-9a2b4d"
PASSWORD = "canary-password-3e8f"


class EchoingAgent(ScriptedAgent):
    """Echoes the credentials it received in its card and in its result (a careless or
    hostile agent)."""

    seen: str = ""

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.seen = (
            f"key={request.headers.get('x-api-key')} auth={request.headers.get('authorization')}"
        )
        return super().handle(request)

    def card(self) -> dict[str, Any]:
        card = super().card()
        card["description"] = f"I saw {self.seen}"
        return card


def _factory(agent: EchoingAgent) -> Any:
    def build(target: Target, options: ClientOptions, on_update: UpdateCallback) -> Procedure:
        return Procedure(target, options, transport=agent.transport(), on_update=on_update)

    return build


async def test_echoed_credentials_are_masked_on_overview_steps_and_results(
    user_dirs: UserDirs,
) -> None:
    agent = EchoingAgent()
    agent.invoke = lambda _req: task(
        "TASK_STATE_COMPLETED",
        artifacts=[artifact("r1", "evaluate_resource_condition", {"echo": agent.seen})],
    )
    options = ClientOptions(headers=(("X-Api-Key", API_KEY),), bearer=BEARER)
    app = snapshot_app(Target(BASE), options, engine_factory=_factory(agent), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        card = static_text(app, "#card-body")
        assert "I saw key=" in card and MASK in card
        await pilot.press("2", "r")
        await settle(pilot)
        app.screen.select_step(1)  # type: ignore[attr-defined]
        await pilot.pause()
        evidence = static_text(app, "#evidence-body")
        await enter_arguments(pilot, APPENDIX_B_TEXT)
        await pilot.press("ctrl+j")
        await wait_until(
            pilot, lambda: app.current_run is not None and app.current_run.task is not None
        )
        await settle(pilot)
        result = static_text(app, "#result-body")
        assert '"echo"' in result
        for shown in (card, evidence, result, static_text(app, "#target-header")):
            assert API_KEY not in shown and BEARER not in shown, shown


async def test_the_header_bar_never_shows_a_url_password(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    url = reference_agent().url.replace("http://", f"http://tester:{PASSWORD}@")
    app = snapshot_app(Target(url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        run = app.current_run
        assert run is not None and run.card is not None  # the URL did reach the agent
        header = static_text(app, "#target-header")
        assert PASSWORD not in header and "127.0.0.1" in header
        assert PASSWORD not in static_text(app, "#card-body")


async def test_recent_targets_and_edits_never_store_userinfo(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    url = reference_agent().url.replace("http://", f"http://tester:{PASSWORD}@")
    app = snapshot_app(Target(url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r")
        await enter_arguments(pilot, APPENDIX_B_TEXT)
        await pilot.pause(0.7)  # the edit is saved 0.5 s after the last keystroke
        await settle(pilot)
    stored = [p for p in Path(user_dirs.data).rglob("*.json") if "history" not in p.parts]
    assert {p.name for p in stored} >= {"recent.json"}
    assert any(p.parent.name == "edits" for p in stored)
    for path in stored:
        text = path.read_text(encoding="utf-8")
        assert PASSWORD not in text and "tester" not in text, path
    assert user_dirs.recent_targets() == [url.replace(f"tester:{PASSWORD}@", "")]
    assert json.loads(next(p for p in stored if p.parent.name == "edits").read_text())[
        "target"
    ] == (url.replace(f"tester:{PASSWORD}@", ""))


async def test_s_on_steps_reveals_secrets_on_that_screen_only(make_app: Any) -> None:
    """`s` on Steps used to unmask every screen (a module-level flag)."""
    app = make_app()
    secret = "sia-tui reference agent"  # the card's name, marked secret
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.add_secret_values([secret])
        await pilot.press("2", "r")
        await settle(pilot)
        app.screen.select_step(1)
        await pilot.pause()
        assert secret not in static_text(app, "#evidence-body")
        await pilot.press("s")
        await settle(pilot)
        assert secret in static_text(app, "#evidence-body")  # revealed here
        await pilot.press("1")
        await settle(pilot)
        card = static_text(app, "#card-body")
        assert secret not in card and MASK in card  # and nowhere else


async def test_f12_after_s_saves_the_screenshot_masked(
    make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`s` on Steps shows a marked value in clear; f12 then saves a screenshot in which it
    is masked (as f12 promises), and Steps shows it in clear again afterwards."""
    monkeypatch.setattr(exports, "export_dir", lambda: tmp_path / "downloads")
    app = make_app()
    secret = "sia-tui reference agent"  # the card's name, marked secret
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.add_secret_values([secret])
        await press(pilot, "2", "r")
        app.screen.select_step(1)
        await press(pilot, "s")
        assert secret in static_text(app, "#evidence-body")
        await press(pilot, "f12")
        await wait_until(pilot, lambda: any((tmp_path / "downloads").glob("*.svg")))
        [picture] = (tmp_path / "downloads").glob("*.svg")
        drawn = picture.read_text().replace("&#160;", " ")
        assert "Step 1: Retrieve the Agent Card" in drawn and MASK in drawn
        assert secret not in drawn
        await settle(pilot)
        assert secret in static_text(app, "#evidence-body")  # still revealed on screen
