"""The Invoke screen's Problems table lays its rows out again only when they or its width
change: a check that finds the same problems, or the table growing to fit its rows, leaves
the row the user is reading where it is (laying out again also drew the table twice
between a keystroke and its error on screen)."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from sia_tui.tui.widgets.problems_table import ProblemsTable


def problems(count: int, note: str = "not one of the allowed values") -> list[tuple[Any, ...]]:
    return [(f"{i + 3}:5", f"/items/{i}", "enum", "one of", "x", note) for i in range(count)]


class TableApp(App[None]):
    CSS = "ProblemsTable { height: auto; max-height: 8; }"

    def compose(self) -> ComposeResult:
        yield ProblemsTable(id="errors")


async def test_the_same_problems_found_again_keep_the_row_being_read() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(ProblemsTable)
        table.show_rows(problems(4))
        table.focus()
        await pilot.pause()
        await pilot.press("down", "down")
        assert table.cursor_row == 2

        table.show_rows(problems(4))  # the next keystroke's check: the same problems
        await pilot.pause()
        assert table.cursor_row == 2

        table.show_rows(problems(3))  # other problems: laid out afresh
        await pilot.pause()
        assert table.row_count == 3 and table.cursor_row == 0


async def test_growing_to_fit_longer_messages_keeps_the_row_being_read() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(ProblemsTable)
        table.show_rows(problems(20))  # more rows than the table may show
        table.focus()
        await pilot.pause()
        await pilot.press("down")
        width, height = table.size
        app.query_one(ProblemsTable).styles.max_height = 12  # taller, as wide
        await pilot.pause()
        assert table.size.width == width and table.size.height != height
        assert table.cursor_row == 1

        await pilot.resize_terminal(80, 20)  # a new width: the columns are laid out again
        await pilot.pause()
        assert table.row_count == 20 and table.cursor_row == 0
