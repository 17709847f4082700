"""What the editor's speed-ups keep the same, and what they change for a person typing.

- After a check, only the lines whose underlines changed are drawn again: a hypothesis
  test runs random sequences of checks, edits, scrolls and cursor moves on the argument
  editor and on one that draws every line again (as before), side by side, and compares
  every row on screen after each step.
- The Problems table's rows are measured when they are set, so the frame that follows
  shows them at their height (DataTable measured them when next idle, a frame later).
- The check starts at the keystroke and is shown once the debounce has passed.
- The Problems table keeps its place (empty while the arguments are valid), so a paste
  that brings up problems at 80x24 does not shrink the editor under its cursor.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region

from sia_tui.core.schemas import validate_json_text
from sia_tui.tui.screens import invoke_check
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.problems_table import ProblemsTable
from tests.support.tui import SMALL, settle, terminal_paste, wait_until
from tests.tui.test_editor_journeys import FOURTEEN_LINES, open_editor

_TEXT = "\n".join(f'  "member_{i}": [{i}, "value {i}", true, null],' for i in range(60))


class FullRedraw(ArgumentEditor):
    """The argument editor as it was: every mark change drew every line again."""

    def _redraw_lines(self, lines: set[int]) -> None:
        self.notify_style_update()
        self.refresh()


class TwoEditors(App[None]):
    AUTO_FOCUS = None  # neither editor has the focus (its border would differ)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield ArgumentEditor(_TEXT, id="kept")
            yield FullRedraw(_TEXT, id="full")


def _rows(editor: ArgumentEditor) -> list[list[tuple[str, Any]]]:
    """Every row the editor draws, as (text, style) segments."""
    strips = editor.render_lines(Region(0, 0, editor.size.width, editor.size.height))
    return [[(segment.text, segment.style) for segment in strip] for strip in strips]


_position = st.tuples(st.integers(1, 64), st.integers(1, 40))
_step = st.one_of(
    st.tuples(st.just("mark"), st.lists(_position, max_size=6)),
    st.tuples(st.just("scroll"), st.integers(0, 60)),
    st.tuples(st.just("type"), st.tuples(st.integers(0, 59), st.integers(0, 40))),
    st.tuples(st.just("cursor"), st.tuples(st.integers(0, 59), st.integers(0, 40))),
)


# Not marked ``frames``: after each step the test renders every row of both editors itself
# (``_rows``), which fills and reads the same row caches a frame would; a row left stale by
# the kept editor fails it without the app drawing frames nobody reads.
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(_step, min_size=1, max_size=12))
def test_redrawing_only_re_marked_lines_draws_what_redrawing_all_draws(
    steps: list[tuple[str, Any]],
) -> None:
    import asyncio

    async def run() -> None:
        app = TwoEditors()
        async with app.run_test(size=(120, 20)) as pilot:
            editors = [app.query_one("#kept", ArgumentEditor), app.query_one("#full", FullRedraw)]
            for editor in editors:
                editor.cursor_blink = False
            await pilot.pause()
            for kind, value in steps:
                for editor in editors:
                    if kind == "mark":
                        editor.mark_errors(value)
                    elif kind == "scroll":
                        editor.scroll_to(y=value, animate=False)
                    elif kind == "type":
                        editor.insert("x", editor.clamp_visitable(value))
                    else:
                        editor.move_cursor(editor.clamp_visitable(value))
                await pilot.pause()
                kept, full = (_rows(editor) for editor in editors)
                assert kept == full, (kind, value)

    asyncio.run(run())


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        yield ProblemsTable(id="errors")


@pytest.mark.frames  # every frame drawn, as a terminal would: what each redraw shows
async def test_problem_rows_are_measured_when_they_are_set() -> None:
    """Set, the rows have their wrapped height at once: the next frame draws them whole
    (DataTable measured them when idle, and a frame first drew them 0 lines high)."""
    long = Text("a message long enough to wrap over several lines of the column " * 3)
    rows = [("1:1", "/a", "type", "", "", long), ("2:1", "/b", "enum", "", "", Text("short"))]
    app = OneTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(ProblemsTable)
        table.show_rows(rows)
        at_once = (table.virtual_size, [row.height for row in table.ordered_rows])
        await pilot.pause()
        when_idle = (table.virtual_size, [row.height for row in table.ordered_rows])
        assert at_once == when_idle
        assert at_once[1][0] > 1  # the long message wraps


@pytest.mark.frames
async def test_the_check_starts_at_the_keystroke_and_shows_after_the_debounce(
    make_app: Any, monkeypatch: Any
) -> None:
    """The text typed is checked while the debounce runs (in 1 MB the check takes some 50
    ms of it); its problems appear only once the debounce has passed."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen, editor = await open_editor(pilot)
        assert screen.valid
        checked: list[str] = []
        check = validate_json_text

        def recording(compiled: Any, text: str) -> Any:
            checked.append(text)
            return check(compiled, text)

        monkeypatch.setattr(invoke_check, "validate_json_text", recording)
        monkeypatch.setattr(invoke_check, "VALIDATE_DELAY", 3600)  # a debounce that waits
        editor.move_cursor((0, 0))
        await pilot.press("x")  # not JSON any more
        await wait_until(pilot, lambda: editor.text in checked)
        assert screen.valid and screen.query_one(ProblemsTable).row_count == 0  # not shown yet
        screen._debounce_passed()  # the debounce's timer fires
        await pilot.pause()
        assert not screen.valid and screen.query_one(ProblemsTable).row_count == 1


@pytest.mark.frames
async def test_a_paste_that_brings_up_problems_keeps_the_cursor_in_view_at_80x24(
    make_app: Any,
) -> None:
    """At 80x24, 14 lines pasted after the example (two objects: not JSON) list a problem;
    the editor keeps its height, and the cursor (the end of the paste) stays on screen."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen, editor = await open_editor(pilot)
        assert screen.valid
        height = editor.size.height
        editor.move_cursor(editor.document.end)
        await terminal_paste(pilot, "\n" + FOURTEEN_LINES)
        await wait_until(pilot, lambda: not screen.valid)
        await settle(pilot)
        assert screen.query_one(ProblemsTable).row_count == 1
        assert editor.size.height == height
        row = editor.cursor_location[0]
        top = editor.scroll_offset.y
        assert top <= row < top + editor.scrollable_content_region.height
