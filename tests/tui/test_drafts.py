"""A draft never traps the user. The editor's text is saved per agent and skill and put back
when they are opened again; a draft of any size comes back and can be edited across a
line-number gutter boundary, and one that cannot be read or put back is set aside beside
itself (``.broken-<time>``), a notice says where, and the editor opens with the example."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.storage import BrokenDraft, UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.tui import SIZE, press, record_notices, settle, wait_until
from tests.tui.test_editor_journeys import assert_shows_line


def draft_of(lines: int) -> str:
    """A JSON array of ``lines`` lines (0: an empty draft, everything deleted)."""
    if lines == 0:
        return ""
    if lines == 1:
        return "[1, 2, 3]"
    items = [f'  {{"n": {i}, "note": "draft line {i}"}},' for i in range(lines - 3)]
    return "\n".join(["[", *items, "  {}", "]"] if lines > 2 else ["[", "]"])


async def reopen_with_draft(
    pilot: Pilot[Any], user_dirs: UserDirs, write: Any
) -> tuple[InvokeScreen, ArgumentEditor, Path]:
    """Steps 1-6, a draft written for the agent and skill (``write(path)``), then screen 5."""
    await press(pilot, "2", "r")
    app = pilot.app
    assert isinstance(app, SiaApp)
    run = app.current_run
    assert run is not None and run.skill_id
    path = user_dirs.edit_path(run.target.location, run.skill_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write(path)
    await press(pilot, "5")
    screen = pilot.app.screen
    assert isinstance(screen, InvokeScreen)
    await wait_until(pilot, lambda: screen.last_result is not None)
    return screen, screen.query_one(ArgumentEditor), path


def save_text(text: str) -> Any:
    """A draft as the app saves it, holding ``text``."""

    def write(path: Path) -> None:
        record = {"target": "t", "skill_id": "s", "text": text}
        path.write_text(json.dumps(record), encoding="utf-8")

    return write


#: Past 10,000 lines: a five-digit gutter, the widest the editor's tests reach. Neither the
#: draft store nor the editor has a size threshold beyond the gutter's digits; 40,000 lines
#: cost three times the CPU for the same journey.
LARGE = 12_000


@pytest.mark.parametrize("lines", [0, 1, 10, 100, 1_000, LARGE])
async def test_a_draft_of_any_size_comes_back_and_edits_across_the_gutter(
    make_app: Any, user_dirs: UserDirs, lines: int
) -> None:
    draft = draft_of(lines)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        told = record_notices(app)
        screen, editor, path = await reopen_with_draft(pilot, user_dirs, save_text(draft))
        assert editor.text == draft
        assert not any("set aside" in notice for notice in told), told
        count = editor.document.line_count
        assert count == max(lines, 1)
        # The last line joined to the one above (10 lines become 9, 100 become 99, ...),
        # then undone, with the cursor moved down to the end after each.
        editor.move_cursor((count - 1, 0))  # a click at the start of the last line
        await pilot.press("backspace", "up", "down", "down")
        await settle(pilot)
        assert editor.document.line_count == max(count - 1, 1)
        await pilot.press("ctrl+z", "up", "down", "down")
        await settle(pilot)
        assert editor.text == draft
        assert_shows_line(editor, count)
        assert path.exists() and not list(path.parent.glob("*.broken-*"))


def assert_set_aside(told: list[str], editor: ArgumentEditor, path: Path, content: bytes) -> None:
    """The draft's bytes are kept beside it, the notice names where, the example is shown."""
    aside = list(path.parent.glob(f"{path.name}.broken-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert any("set aside" in notice and str(aside[0]) in notice for notice in told), told
    assert editor.document.line_count == 9 and '"resource_id"' in editor.text  # the example


#: Drafts this app did not write (not UTF-8 JSON, no text): the store refuses each one.
UNREADABLE = pytest.mark.parametrize(
    "content",
    [
        b'\xff\xfe{"text": "not UTF-8"}',
        b'{"target": "t", "skill_id": "s", "text": "cut off in the mid',
        b'{"target": "t", "skill_id": "s", "text": 5}',
        b"[]",
        b"",
    ],
    ids=["not-utf8", "truncated", "no-text", "not-an-object", "empty-file"],
)


@UNREADABLE
def test_the_store_refuses_a_draft_it_did_not_write(user_dirs: UserDirs, content: bytes) -> None:
    """Each kind of unreadable draft is refused as broken (not read as no draft, not
    crashing), and setting it aside keeps its bytes. The screen treats every refusal alike
    (any exception sets the draft aside): the journey below shows it once."""
    path = user_dirs.edit_path("http://agent", "skill")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(BrokenDraft):
        user_dirs.load_edit("http://agent", "skill")
    aside = user_dirs.set_aside_edit("http://agent", "skill")
    assert aside.read_bytes() == content and not path.exists()
    assert user_dirs.load_edit("http://agent", "skill") is None  # the next open: no draft


async def test_a_draft_that_cannot_be_read_is_set_aside(make_app: Any, user_dirs: UserDirs) -> None:
    content = b'\xff\xfe{"text": "not UTF-8"}'
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        told = record_notices(app)
        screen, editor, path = await reopen_with_draft(
            pilot, user_dirs, lambda path: path.write_bytes(content)
        )
        assert_set_aside(told, editor, path, content)
        editor.move_cursor(editor.document.end)
        await pilot.press("enter", "down")  # the editor works as usual
        await settle(pilot)
        assert editor.document.line_count == 10


async def test_a_draft_whose_restoring_fails_is_set_aside(
    make_app: Any, user_dirs: UserDirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever putting the draft back raises (here: the editor refusing that text, as a
    draft that once crashed it might), the draft goes aside and the example comes."""
    draft = draft_of(10)
    load_text = ArgumentEditor.load_text

    def refusing(editor: ArgumentEditor, text: str) -> None:
        if text == draft:
            raise IndexError("list index out of range")
        load_text(editor, text)

    monkeypatch.setattr(ArgumentEditor, "load_text", refusing)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        told = record_notices(app)
        screen, editor, path = await reopen_with_draft(pilot, user_dirs, save_text(draft))
        saved = list(path.parent.glob("*.broken-*"))
        assert len(saved) == 1 and json.loads(saved[0].read_bytes())["text"] == draft
        assert_set_aside(told, editor, path, saved[0].read_bytes())
        assert any("IndexError" in notice for notice in told), told
