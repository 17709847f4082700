"""Arguments from a file into the editor: `open/demo --args FILE`, f2 with a file picker, and
f7 (select all) shown. A bad file is refused, located, and loses nothing typed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from sia_tui.cli.parser import run
from sia_tui.core.run import Target
from sia_tui.tui.screens.file_picker import FilePickerScreen, list_folder, split_typed
from sia_tui.tui.screens.help import HelpScreen
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.tui import SIZE, press, record_notices, settle, snapshot_app, wait_until

ARGS_TEXT = json.dumps(APPENDIX_B_ARGUMENTS, indent=4)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder: two argument files, a bad one, a sub-folder and a hidden file."""
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    (tmp_path / "appendix-b.json").write_text(ARGS_TEXT, encoding="utf-8")
    (tmp_path / "bad.json").write_text('{\n  "resource_id": "r",\n  oops\n}\n', encoding="utf-8")
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "other.json").write_text('{"resource_id": "x"}', encoding="utf-8")
    (tmp_path / ".hidden.json").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


async def _editor(pilot: Pilot[Any]) -> tuple[InvokeScreen, ArgumentEditor]:
    await press(pilot, "2", "r", "5")
    screen = pilot.app.screen
    assert isinstance(screen, InvokeScreen)
    editor = screen.query_one(ArgumentEditor)
    await wait_until(pilot, lambda: screen.last_result is not None)
    return screen, editor


async def _load(pilot: Pilot[Any], typed: str) -> None:
    await pilot.press("f2")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, FilePickerScreen))
    await pilot.press(*typed, "enter")
    await wait_until(pilot, lambda: not isinstance(pilot.app.screen, FilePickerScreen))
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


async def test_open_with_args_starts_the_editor_with_the_file(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """`open CARD --args FILE`: the Invoke screen's editor holds the file's text, as typed
    in the file, and validates it."""
    app = snapshot_app(
        Target(reference_agent().url), dirs=user_dirs, arguments=("args.json", ARGS_TEXT)
    )
    async with app.run_test(size=SIZE) as pilot:
        told = record_notices(app)
        screen, editor = await _editor(pilot)
        assert editor.text == ARGS_TEXT and screen.valid
        assert any("arguments of args.json" in t for t in told), told
        assert app.initial_arguments is None  # once: a new target starts as usual


async def test_f2_refuses_a_bad_file_then_loads_one_and_ctrl_z_brings_the_typed_text_back(
    make_app: Any, folder: Path
) -> None:
    """Text typed, then f2: a bad file is refused, located, and the typed text kept; a missing
    one too; a good one replaces the text, and ctrl+z brings the typed text back. (One app:
    each file loaded is a step of the same journey; an app per file started it again.)"""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await _editor(pilot)
        editor.select_all()
        await pilot.press(*'{"mine": 1}')
        typed = editor.text
        told = record_notices(app)
        await _load(pilot, "bad.json")
        assert editor.text == typed
        assert told and "bad.json:3:3" in told[-1] and "editor is unchanged" in told[-1], told
        told.clear()
        await _load(pilot, "missing.json")
        assert editor.text == typed
        assert told and "missing.json" in told[-1], told
        await _load(pilot, "appendix-b.json")
        assert editor.text == ARGS_TEXT
        await wait_until(pilot, lambda: screen.valid)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: editor.text == typed)


async def test_f7_is_named_then_the_picker_opens_folders_esc_cancels_and_typing_completes(
    make_app: Any, folder: Path
) -> None:
    """f7 (TextArea's select all, which Textual lists nowhere) is named under the editor and
    by F1; f2 is in the footer. Then, in the same app (one run of steps 1-6 serves both
    journeys), f2's picker opens folders with enter, esc cancels it, and typing completes."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await _editor(pilot)
        assert "f7 selects all" in str(editor.border_subtitle)
        footer = {key for key, active in app.active_bindings.items() if active.binding.show}
        assert "f2" in footer
        editor.select_all()
        await pilot.press("home", "f7")
        assert editor.selected_text == editor.text
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert "| `f7` | Select all" in app.screen.markdown
        assert "| `f2` | Load" in app.screen.markdown
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)

        before = editor.text
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, FilePickerScreen))
        picker = app.screen
        listing = picker.query_one(OptionList)
        shown = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert shown == ["../", "more/", "appendix-b.json", "bad.json"]  # no hidden file
        await pilot.press("down", "down", "enter")  # ↓ into the list, then more/
        await settle(pilot)
        assert picker.query_one(Input).value == "more/"
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FilePickerScreen) and editor.text == before
        # A new picker: typing completes a name.
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, FilePickerScreen))
        await pilot.press("a", "p")
        await settle(pilot)
        await pilot.press("right")  # accepts the completion
        assert app.screen.query_one(Input).value == "appendix-b.json"


def test_folder_listing_and_typed_paths(folder: Path) -> None:
    assert split_typed("more/ot", folder) == (folder / "more", "ot")
    assert split_typed("", folder) == (folder, "")
    assert [e.shown for e in list_folder(folder, ".")] == [".hidden.json"]
    assert list_folder(folder / "nowhere") == []


def test_cli_open_with_a_bad_args_file_exits_2_located(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing starts: the error names the file, line and column."""
    assert run(["open", "http://127.0.0.1:9", "--args", "bad.json"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("sia-tui open: --args: bad.json:3:3")
    assert run(["demo", "--args", "missing.json"]) == 2
    assert "missing.json" in capsys.readouterr().out
    assert run(["open", "http://127.0.0.1:9", "--args", "-"]) == 2
    assert "a file, not -" in capsys.readouterr().out


def test_the_file_picker(snap_compare: Any, make_app: Any, folder: Path) -> None:
    """A centred dialog over the Invoke screen titled "Load the arguments from a JSON file",
    a help line, an empty path field with the cursor, and a list titled "./" that shows
    ../, more/, appendix-b.json and bad.json (folders first, no hidden file). Behind it, the
    Invoke screen with its (empty) Problems table in its place."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _editor(pilot)
        await pilot.press("f2")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
