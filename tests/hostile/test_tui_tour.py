"""A hostile agent, a hand-edited session and a plugfest toured in the TUI: agent text can
never act through it.

Every string the agent or the file controls is Textual markup (``@click`` actions, a tag
that does not parse) followed by terminal escapes (OSC 0/52, CSI, C1, bidi). The tour
visits every screen (0-9, F1, the palette; the Matrix screen and a cell's run), clicks
the rows of every list, and asserts that no action ran, no file was written, the app is
still running, and nothing the agent sent reached the terminal as a control character.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from sia_tui.cli.parser import run as cli
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.matrix import load_plugfest
from sia_tui.core.run.read_model import Target
from sia_tui.core.session import autosave, load_session
from sia_tui.tui.matrix_app import MatrixApp
from sia_tui.tui.screens.matrix import MatrixLaunch, MatrixMode
from sia_tui.tui.storage import UserDirs
from tests.hostile.attacks_tui import HOSTILE
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import serving
from tests.hostile.tampering import tamper
from tests.hostile.tui_tour import (
    Sentinel,
    click_every_list,
    recording_terminal,
    terminal_escapes,
    visit,
)
from tests.support.plugfest import plugfest_file
from tests.support.tui import (
    SIZE,
    invoke_appendix_b,
    read_only_app,
    record_notices,
    send_on_console,
    settle,
    snapshot_app,
    wait_until,
)

#: Every screen of the app, in key order, then the console (its editor gets the examples).
SCREENS = "1234567890"
pytestmark = pytest.mark.slow


@pytest.fixture
def user_dirs(tmp_path: Path) -> UserDirs:
    return UserDirs(tmp_path / "config", tmp_path / "data")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory: a screenshot markup would write into it."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


async def tour(pilot: Pilot[Any], screens: str = SCREENS) -> int:
    """Visit each screen and click its lists; F1 and the palette on the last one."""
    clicks = 0
    for key in screens:
        await visit(pilot, key)
        clicks += await click_every_list(pilot, key)
    for key in ("f1", "escape", "ctrl+p", "escape"):
        await pilot.press(key)
        await settle(pilot)
    return clicks


def assert_nothing_acted(
    app: App[Any], sentinel: Sentinel, told: list[str], workdir: Path, written: list[str]
) -> None:
    assert not sentinel.calls, sentinel.calls
    assert "PWNED" not in told, "an agent's markup showed a toast"
    assert app.is_running and app.return_code is None
    assert not os.listdir(workdir), "an agent's markup wrote a file"
    output = "".join(written)
    assert output, "nothing was rendered"
    escapes = terminal_escapes(output)
    assert not escapes, escapes[:10]
    # The agent's text is on screen, as text.
    assert "[@click=app.quit]" in output and "␛]0;pwned" in output


async def test_a_hostile_agent_toured_live(
    workdir: Path, user_dirs: UserDirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Card, skills, examples, record kinds, artifact names, status messages: live."""
    with serving("inject-tui") as server, recording_terminal(monkeypatch) as written:
        app = snapshot_app(Target(server.url), dirs=user_dirs)
        sentinel = Sentinel(app, monkeypatch)
        told = record_notices(app)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await invoke_appendix_b(pilot)
            await visit(pilot, "0")
            await send_on_console(pilot, "hello", mode="stream")  # rejected: its error object
            await send_on_console(pilot, "hello")  # the task, its artifacts
            for _ in range(2):  # the card's examples, an escape first in the first one
                await pilot.press("f4")
            clicks = await tour(pilot)
            assert_nothing_acted(app, sentinel, told, workdir, written)
    assert clicks > 50


@pytest.fixture
def hostile_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A recorded run of the hostile agent (streamed: the task is rejected with its error
    object), hand-edited: every free-text member (step titles, messages, hints...) ends with
    the payload; and a history entry."""
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    recorded = tmp_path / "recorded.session.json"
    with serving("inject-tui") as server:
        cli(["check", server.url, "--skill", SKILL, "--args", str(arguments)]
            + ["--mode", "stream", "--save", str(recorded), "--deadline", "10"])  # fmt: skip
    capsys.readouterr()
    data = json.loads(recorded.read_text(encoding="utf-8"))
    tampered = tmp_path / "tampered.session.json"
    tampered.write_text(json.dumps(tamper(data, HOSTILE)), encoding="utf-8")
    autosave(load_session(tampered).run, ClientOptions())
    index = Path(os.environ["SIA_TUI_DATA_DIR"]) / "history" / "index.json"
    entries = json.loads(index.read_text(encoding="utf-8"))
    for entry in entries["entries"]:
        for member in ("target", "agent", "skill"):
            entry[member] = (entry.get(member) or "") + HOSTILE
    index.write_text(json.dumps(entries), encoding="utf-8")
    return tampered


async def test_a_hand_edited_session_toured(
    hostile_session: Path, workdir: Path, user_dirs: UserDirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read-only: step titles on the step list and the step header, the agent's error
    object on the Results screen, the compose pickers of a saved session, the history."""
    with recording_terminal(monkeypatch) as written:
        app = read_only_app(hostile_session, user_dirs)
        sentinel = Sentinel(app, monkeypatch)
        told = record_notices(app)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await tour(pilot)
            assert_nothing_acted(app, sentinel, told, workdir, written)


async def test_a_plugfest_of_a_hostile_agent_toured(
    workdir: Path, tmp_path: Path, user_dirs: UserDirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Matrix screen, then a cell's run opened read-only (its screens, the compose
    picker reached from it)."""
    with serving("inject-tui") as server, recording_terminal(monkeypatch) as written:
        skills = f'[[skill]]\nid = "{SKILL}"\n'
        path = plugfest_file(tmp_path, {"vendor": server.url}, skills, head='modes = ["sync"]')
        launch = MatrixLaunch(load_plugfest(path, {}), tmp_path / "sessions")
        app = MatrixApp(launch, dirs=user_dirs)
        app.animation_level = "none"
        sentinel = Sentinel(app, monkeypatch)
        told = record_notices(app)
        async with app.run_test(size=SIZE) as pilot:

            def finished() -> bool:
                screen = app.screen
                return isinstance(screen, MatrixMode) and bool(screen.matrix)

            await wait_until(pilot, finished)
            screen = app.screen
            assert isinstance(screen, MatrixMode) and screen.matrix is not None
            await wait_until(pilot, lambda: bool(screen.matrix and screen.matrix.finished))
            await settle(pilot)
            await click_every_list(pilot, "m")
            await visit(pilot, "m")
            await pilot.press("enter")  # the cell under the cursor: its run, read-only
            await settle(pilot)
            await tour(pilot, "12345678")
            assert_nothing_acted(app, sentinel, told, workdir, written)
