"""An agent without the extension, and skills without a schema interface: the steps that do
not apply say so, and the plain A2A console talks to any skill."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from textual.widgets import OptionList, Select

from sia_tui.core.run import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.screens.console import ConsoleScreen
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.agents import StartAgent
from tests.support.tui import (
    SIZE,
    press,
    record_notices,
    send_on_console,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)


def _plain_app(url: str, user_dirs: UserDirs) -> SiaApp:
    return snapshot_app(Target(url), dirs=user_dirs)


async def test_the_console_sends_text_and_data_to_a_plain_a2a_agent(
    echo_agent_url: str, user_dirs: UserDirs
) -> None:
    """The a2a-sdk echo agent has no extension: a text part (sync) and a data part (stream)
    both come back, with the raw reply and the task's artifacts on screen."""
    app = _plain_app(echo_agent_url, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "0")
        await send_on_console(pilot, "hello, plugfest")
        reply = app.console_state.reply
        assert reply is not None and reply.error is None
        assert reply.task is not None and reply.task.state == "TASK_STATE_COMPLETED"
        assert "echo: hello, plugfest" in static_text(app, "#artifacts-body")
        raw = static_text(app, "#reply-body")
        assert "SendMessage" in raw and "TASK_STATE_COMPLETED" in raw  # the raw exchange
        assert "TASK_STATE_COMPLETED" in static_text(app, "#console-status")

        await send_on_console(pilot, '{"n": 7}', part="data", mode="stream")
        reply = app.console_state.reply
        assert reply is not None and reply.error is None and reply.events
        assert reply.task is not None and reply.task.state == "TASK_STATE_COMPLETED"
        artifacts = static_text(app, "#artifacts-body")
        assert '"echo"' in artifacts and '"n": 7' in artifacts
        assert "SendStreamingMessage" in static_text(app, "#reply-body")
        # The console judges nothing: the run's steps are untouched by it.
        run = app.current_run
        assert run is not None and run.task is None and len(run.exchanges) == 1


async def test_a_data_part_that_is_not_json_is_located_and_not_sent(
    echo_agent_url: str, user_dirs: UserDirs
) -> None:
    app = _plain_app(echo_agent_url, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        told = record_notices(app)
        await press(pilot, "0")
        screen = app.screen
        screen.query_one("#part", Select).value = "data"
        screen.query_one(ArgumentEditor).load_text('{"n": }')
        await pilot.press("ctrl+j")
        await settle(pilot)
        assert app.console_state.reply is None
        assert any("1:7" in notice for notice in told), told


async def test_the_console_offers_the_card_skills_examples(
    echo_agent_url: str, user_dirs: UserDirs
) -> None:
    """The card's examples fill the editor; a JSON one becomes a data part."""
    app = _plain_app(echo_agent_url, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "0")
        screen = app.screen
        editor = screen.query_one(ArgumentEditor)
        assert editor.text == "hello from the card"  # the first example, as a text part
        assert screen.query_one("#part", Select).value == "text"
        await pilot.press("escape", "f4")
        await settle(pilot)
        assert '"greeting": "hello"' in editor.text
        assert screen.query_one("#part", Select).value == "data"


async def test_without_the_extension_steps_3_to_11_do_not_apply_and_the_console_is_offered(
    echo_agent_url: str, user_dirs: UserDirs
) -> None:
    app = _plain_app(echo_agent_url, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        overview = static_text(app, "#card-body") + static_text(app, "#skill-note")
        assert "Steps 3-11 do not apply" in overview
        assert "Press 0 for the plain A2A console" in overview
        assert "the extension's" not in static_text(app, "#skill-note")
        await pilot.press("2", "r")
        await settle(pilot)
        for step in (2, 5, 11):  # the failing step and the skipped ones say why
            app.screen.select_step(step)  # type: ignore[attr-defined]
            await pilot.pause()
            evidence = static_text(app, "#evidence-body")
            assert "Steps 3-11 do not apply" in evidence and "Press 0" in evidence
        await pilot.press("5")
        await settle(pilot)
        assert isinstance(app.screen, InvokeScreen)
        verdict = static_text(app, "#verdict")
        assert "no schema-interface extension" in verdict and "not JSON" not in verdict
        told = record_notices(app)
        await pilot.press("ctrl+j")
        await settle(pilot)
        assert told and "Press 0 for the plain A2A console" in told[-1]


async def test_enter_on_a_skill_without_a_schema_interface_opens_the_console(
    echo_agent_url: str, user_dirs: UserDirs
) -> None:
    app = _plain_app(echo_agent_url, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        skills = app.screen.query_one("#skills", OptionList)
        assert skills.has_focus and skills.highlighted == 0
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
        assert app.console_state.skill_id == "echo"
        assert app.screen.query_one("#skill", Select).value == "echo"


async def test_the_console_refuses_stream_to_a_card_without_streaming(
    reference_agent: StartAgent, tmp_path: Path, user_dirs: UserDirs
) -> None:
    """A2A 1.0 section 3.1.7: the card does not declare capabilities.streaming, so the
    Console sends nothing in stream mode and says why, and where the override is."""
    agent = reference_agent()
    card = httpx.get(f"{agent.url}/.well-known/agent-card.json").json()
    card["capabilities"]["streaming"] = False
    card_file = tmp_path / "card.json"
    card_file.write_text(json.dumps(card))
    app = _plain_app(str(card_file), user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: app.current_run is not None and app.current_run.interface is not None
        )
        await press(pilot, "0")
        await send_on_console(pilot, "hello", mode="stream")
        reply = app.console_state.reply
        assert reply is not None and reply.held and not reply.exchanges
        status = static_text(app, "#console-status")
        assert "does not declare capabilities.streaming" in status
        assert "--ignore-capabilities" in status


async def test_the_console_sends_a_skill_that_may_act_only_after_a_yes(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """RULES SID5, the one execute gate: the card binds apply_interface_shutdown to a
    document declaring execute authority. Picked on the console, the message waits for a
    yes: "n" leaves it unsent (nothing reaches the agent), "y" sends that one message."""
    agent = reference_agent()
    app = snapshot_app(Target(agent.url, skill_id="evaluate_resource_condition"), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        told = record_notices(app)
        await press(pilot, "0")
        await settle(pilot)
        app.screen.query_one("#skill", Select).value = "apply_interface_shutdown"
        await settle(pilot)
        assert app.console_state.skill_id == "apply_interface_shutdown"
        await send_on_console(pilot, "shut it")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        held = app.console_state.reply
        assert held is not None and held.exchanges == [] and "not sent" in (held.error or "")
        await pilot.press("n")
        await settle(pilot)
        assert app.console_state.reply is held  # nothing sent
        assert "Nothing was sent" in told[-1]

        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: app.console_state.reply is not None)
        await settle(pilot)
        sent = app.console_state.reply
        assert sent is not None and sent.error is None and sent.exchanges
        assert sent.task is not None
