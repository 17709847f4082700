"""What people do in the argument editor, done as they do it: Enter in the example
arguments (9 lines become 10) and then the arrow keys, a multi-line paste delivered as a
terminal delivers it (a bracketed paste) at the cursor and over f7's select-all, a 100 KB
paste, typing past 99 lines and undoing, undoing a backspace that joined a paste's undo
batch. Each of these once exited the whole app, with "The document line index 9 is out of
bounds" (the wrapped document left a line short after an edit that widened the line-number
gutter) or an IndexError (a line too many after undoing such a batch)."""

from __future__ import annotations

import json
from typing import Any

from textual.pilot import Pilot

from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.tui import SIZE, press, settle, terminal_paste, wait_until

#: A 14-line object a person copies from elsewhere (an editor, a chat, a spec).
FOURTEEN_LINES = "\n".join(
    ["{", '  "resource_id": "network-resource-123",', '  "condition": {']
    + [f'    "note_{i}": "pasted line {i}",' for i in range(8)]
    + ['    "operator": "gte"', "  }", "}"]
)


def hundred_kb_arguments() -> str:
    """Appendix B arguments with a 100 KB, 4,000-line list of notes (not allowed: one error)."""
    notes = [{"id": i, "note": "padding to grow the document"} for i in range(1_700)]
    value = {
        "resource_id": "network-resource-123",
        "condition": {"metric": "utilization", "operator": "gte", "threshold": 80},
        "x_notes": notes,
    }
    return json.dumps(value, indent=2)


async def open_editor(pilot: Pilot[Any]) -> tuple[InvokeScreen, ArgumentEditor]:
    """Steps 1-6, then the Invoke screen with the skill's example arguments (9 lines)."""
    await press(pilot, "2", "r", "5")
    screen = pilot.app.screen
    assert isinstance(screen, InvokeScreen)
    editor = screen.query_one(ArgumentEditor)
    await wait_until(pilot, lambda: screen.last_result is not None)
    assert editor.has_focus and editor.document.line_count == 9
    return screen, editor


def drawn_rows(editor: ArgumentEditor) -> list[str]:
    """The editor's rows as drawn on screen: the gutter's line number, then the text."""
    height = editor.scrollable_content_region.height
    return ["".join(s.text for s in editor.render_line(y)).rstrip() for y in range(height)]


def assert_shows_line(editor: ArgumentEditor, number: int) -> None:
    """Line ``number`` (1-based) is drawn with its number and its own text."""
    text = editor.document.get_line(number - 1).strip()
    rows = [row.split(maxsplit=1) for row in drawn_rows(editor)]
    assert [str(number), text] in [row[:1] + [" ".join(row[1:])] for row in rows if row], (
        number,
        text,
        drawn_rows(editor),
    )


async def press_down_to_the_end(pilot: Pilot[Any], editor: ArgumentEditor) -> None:
    """The down arrow, one line at a time, until the cursor is on the last line (and twice
    more, as the key does nothing further there). Only as many presses as there are lines below
    the cursor: more were presses at the end that move nothing (after undo past 99 lines the
    cursor is near the end; 100 presses there cost 2 s of CPU)."""
    for _ in range(editor.document.line_count - editor.cursor_location[0] + 2):
        await pilot.press("down")
    await settle(pilot)
    assert editor.cursor_location[0] == editor.document.line_count - 1


async def test_enter_in_the_example_then_down_to_the_tenth_line(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await open_editor(pilot)
        editor.move_cursor((0, 1))  # after the opening brace
        await pilot.press("enter")
        await press_down_to_the_end(pilot, editor)
        assert editor.document.line_count == 10
        assert_shows_line(editor, 10)
        assert editor.text.startswith("{\n\n") and editor.text.endswith("}")
        assert screen.last_result is not None and screen.valid  # a blank line is still JSON


async def test_a_fourteen_line_paste_at_the_cursor(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await open_editor(pilot)
        example = editor.text
        editor.move_cursor(editor.document.end)
        await terminal_paste(pilot, "\n" + FOURTEEN_LINES)
        assert editor.text == example + "\n" + FOURTEEN_LINES
        assert editor.cursor_location == editor.document.end  # the end of what was pasted
        editor.move_cursor((0, 0))  # TextArea has no key for the top: a click there
        await press_down_to_the_end(pilot, editor)
        assert_shows_line(editor, 23)
        await wait_until(pilot, lambda: screen.last_result is not None and not screen.valid)


async def test_a_fourteen_line_paste_over_select_all(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await open_editor(pilot)
        await pilot.press("f7")
        await terminal_paste(pilot, FOURTEEN_LINES)
        assert editor.text == FOURTEEN_LINES
        editor.move_cursor((0, 0))  # TextArea has no key for the top: a click there
        await press_down_to_the_end(pilot, editor)
        assert_shows_line(editor, 14)
        await pilot.press("ctrl+z")  # the example comes back
        await press_down_to_the_end(pilot, editor)
        assert editor.document.line_count == 9
        assert_shows_line(editor, 9)


async def test_a_100_kb_paste_over_select_all_then_undo(make_app: Any) -> None:
    pasted = hundred_kb_arguments()
    assert len(pasted) > 100_000
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await open_editor(pilot)
        await pilot.press("f7")
        await terminal_paste(pilot, pasted)
        assert editor.text == pasted
        await pilot.press("up", "up", "down", "pageup", "pagedown", "down", "down")
        await settle(pilot)
        last = editor.document.line_count
        assert last == pasted.count("\n") + 1
        assert_shows_line(editor, last)
        await wait_until(pilot, lambda: screen.last_result is not None and not screen.valid)
        await pilot.press("ctrl+z")  # back to the 9-line example, at its top
        await press_down_to_the_end(pilot, editor)
        assert_shows_line(editor, 9)


async def test_typing_past_99_lines_then_undo_then_down(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, editor = await open_editor(pilot)
        editor.load_text("[\n" + "".join(f"  {i},\n" for i in range(96)) + "  96\n]")
        editor.move_cursor((97, 4))  # after "96", the last item
        await pilot.press(",", "enter", "9", "7", ",", "enter", "9", "8")
        assert editor.document.line_count == 101
        await pilot.press("ctrl+z")  # "98" goes
        await pilot.press("ctrl+z")  # and the line it was typed on: 100 lines
        await pilot.press("ctrl+z", "ctrl+z")  # 99 lines: the gutter narrows
        assert editor.document.line_count == 99
        await press_down_to_the_end(pilot, editor)
        assert_shows_line(editor, 99)
        await pilot.press("ctrl+y", "ctrl+y")  # redo: 100 lines, the gutter widens again
        await press_down_to_the_end(pilot, editor)
        assert editor.document.line_count == 100
        assert_shows_line(editor, 100)


async def test_a_backspace_that_joins_a_pastes_undo_batch_undone(make_app: Any) -> None:
    """Fourteen lines (the gutter stays two digits wide), a paste of a line break and a
    colon at the top, backspace, ctrl+z, backspace, ctrl+z: the second undo takes back the
    backspace and the paste at once, and the down arrow then reaches line 14, drawn. At
    140x40 the editor has room for the row below the last line, where the app exited with
    an IndexError drawing a line the document no longer had."""
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        screen, editor = await open_editor(pilot)
        await pilot.press("f7")
        await terminal_paste(pilot, FOURTEEN_LINES)
        editor.move_cursor((0, 0))  # a click at the top: the next edit starts a new batch
        await terminal_paste(pilot, "\n:")
        await press(pilot, "backspace", "ctrl+z", "backspace", "ctrl+z")
        assert editor.text == FOURTEEN_LINES
        await press_down_to_the_end(pilot, editor)
        assert_shows_line(editor, 14)
