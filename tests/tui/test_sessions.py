"""Pilot tests of sessions in the TUI: save with preview, autosave, history, read-only open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input

from sia_tui.cli.parser import run as run_cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import StepStatus, Target
from sia_tui.core.session import history, save_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.display import MASK
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.screens.digests import DigestsScreen
from sia_tui.tui.screens.history import HistoryMode
from sia_tui.tui.screens.prompt import PromptScreen
from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.tui import (
    SIZE,
    invoke_appendix_b,
    read_only_app,
    record_notices,
    record_run,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)

CANARY_BEARER = "canary-bearer-tui-4e7d19a3"


async def test_a_cancelled_save_writes_nothing_and_a_save_previews_redactions_without_bearer(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ctrl+s then Esc writes nothing (not even to the default destination in the current
    folder); ctrl+s again lists what will be redacted, and the file saved holds no bearer.
    (One app: the second ctrl+s is the user's next try.)"""
    monkeypatch.chdir(tmp_path)
    agent = reference_agent()
    app = snapshot_app(Target(agent.url), ClientOptions(bearer=CANARY_BEARER), dirs=user_dirs)
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, RedactionPreviewScreen)
        assert list(tmp_path.glob("*.session.json")) == []
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
        preview = app.screen
        table = preview.query_one("#redactions", DataTable)
        placeholders = {str(table.get_row_at(r)[0]) for r in range(table.row_count)}
        assert "«redacted:authorization»" in placeholders  # what will be redacted, and where
        destination = preview.query_one("#destination", Input)
        assert destination.value.startswith("./sia-evaluate_resource_condition-")
        destination.value = str(tmp_path / "bug.session.json")
        preview.query_one("#save").focus()
        await pilot.press("y")
        await wait_until(pilot, lambda: (tmp_path / "bug.session.json").exists())
        await wait_until(pilot, lambda: any("bug.session.json" in m for m in told))
    text = (tmp_path / "bug.session.json").read_text()
    assert json.loads(text)["format"] == "sia-session/6"
    assert CANARY_BEARER not in text  # RULES SR: secrets never leave in a saved file
    assert "«redacted:authorization»" in text


async def test_r_autosaves_the_finished_run_once(reference_agent: Any, user_dirs: UserDirs) -> None:
    agent = reference_agent(fault="digest-card")
    app = SiaApp(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert history.list_history() == []
        await pilot.press("2", "r")
        await wait_until(pilot, lambda: len(history.list_history()) == 1)
        await pilot.press("r")  # nothing more runs: the same finished run is not saved again
        await settle(pilot)
    entries = history.list_history()
    assert len(entries) == 1
    assert (entries[0].outcome, entries[0].failed_step) == ("failed", 4)
    assert entries[0].skill == "evaluate_resource_condition"


async def test_a_run_is_one_history_entry_updated_after_its_invocation(make_app: Any) -> None:
    """Steps 1-6 autosave the run; invoking it updates that entry (not a second
    one), and the entry names the agent and the skill, not only the URL."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await wait_until(pilot, lambda: len(history.list_history()) == 1)
        first = history.list_history()[0]
        assert first.outcome == "incomplete"
        await invoke_appendix_b(pilot)
        await wait_until(pilot, lambda: history.list_history()[0].outcome == "passed")
    entries = history.list_history()
    assert [e.id for e in entries] == [first.id]
    assert entries[0].agent == "sia-tui reference agent"
    assert entries[0].skill == "evaluate_resource_condition"


async def test_open_session_shows_failing_step_without_network(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Path
) -> None:
    agent = reference_agent(fault="digest-card")
    path = tmp_path / "digest-card.session.json"
    save_session(await record_run(agent.url), ClientOptions(), path)
    agent.stop()  # nothing to talk to, and the factory below fails on any attempt
    app = read_only_app(path, user_dirs)
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, StepsScreen)
        assert "session (read-only)" in static_text(app, "#target-header")
        evidence = static_text(app, "#evidence-body")
        assert "Step 4" in evidence and "interface_invalid" in evidence
        app.screen.select_step(3)  # describe_skill: the recorded exchange, from its bytes
        await pilot.pause()
        evidence = static_text(app, "#evidence-body")
        assert "request headers" in evidence and "HTTP 200" in evidence
        await pilot.press("r")
        await pilot.pause()
        assert any(m.startswith("read-only session: use `sia-tui rerun") for m in told)
        run = app.current_run
        assert run is not None and run.steps[4].status is StepStatus.SKIPPED
        await pilot.press("3")
        await settle(pilot)
        assert isinstance(app.screen, DigestsScreen)
        # digest-card: the advertised digest is the odd one out.
        assert "≠ both" in str(app.screen.query_one("#interface", DataTable).get_row_at(0))
        for key in ("4", "6", "7"):  # every screen renders from the recorded run
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        assert app.screen.query_one(ArgumentEditor).read_only  # nothing to send from here
        await pilot.press("8")
        await settle(pilot)
        before = len(told)
        await pilot.press("f5")  # composing would fetch documents: refused too
        await pilot.pause()
        assert any("read-only session" in m for m in told[before:])


def test_open_refuses_a_damaged_session_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "cut.session.json"
    bad.write_text('{"format": "sia-session/1", "run": {')
    assert run_cli(["open", str(bad)]) == 2
    out = capsys.readouterr().out.strip()
    assert out.startswith("sia-tui open: ") and "\n" not in out
    assert "truncated" in out


async def test_history_opens_read_only_and_deletes_after_asking(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    agent = reference_agent(fault="digest-card")
    history.autosave(await record_run(agent.url), ClientOptions())
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        assert isinstance(app.screen, HistoryMode)
        table = app.screen.query_one("#history", DataTable)
        assert table.row_count == 1
        row = [str(c) for c in table.get_row_at(0)]
        # The agent and the skill name the run, then its outcome and failing step.
        assert row[1:5] == ["sia-tui reference agent", "evaluate_resource_condition", "failed", "4"]
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, StepsScreen) and app.read_only)
        await settle(pilot)
        assert "session (read-only, esc: live run)" in static_text(app, "#target-header")
        assert "interface_invalid" in static_text(app, "#evidence-body")
        await pilot.press("7", "d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # declined: the entry stays
        await pilot.pause()
        assert len(history.list_history()) == 1
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert history.list_history() == []
        assert app.screen.query_one("#history", DataTable).row_count == 0


async def test_marked_secret_is_masked_on_screen_and_redacted_on_save(
    make_app: Any, tmp_path: Path
) -> None:
    app = make_app()
    secret = "sia-tui reference agent"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert secret in static_text(app, "#card-body")
        app.action_mark_secret()  # the palette's "session: mark value secret"
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one(Input).password  # typed masked
        app.screen.query_one(Input).value = secret
        await pilot.press("enter")
        await settle(pilot)
        card = static_text(app, "#card-body")
        assert secret not in card and MASK in card
        run = app.current_run
        assert run is not None
        path = tmp_path / "s.session.json"
        save_session(run, app.options, path, secret_values=app.secret_values)
    assert secret not in path.read_text()


async def test_connect_screen_takes_secret_values(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    agent = reference_agent()
    app = snapshot_app(dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#location", Input).value = agent.url
        secrets = app.screen.query_one("#secrets", Input)
        assert secrets.password
        secrets.value = "first-secret; second-secret"
        await pilot.press("ctrl+j")
        await settle(pilot)
        assert app.secret_values == ["first-secret", "second-secret"]
