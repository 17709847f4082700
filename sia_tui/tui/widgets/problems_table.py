"""The Invoke screen's Problems table: one row per problem, its message wrapped in the width
the other columns leave (a long note is read whole, not cut at the screen's edge)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events

from sia_tui.tui.widgets.literal_table import LiteralTable

#: The columns before the message, with their widths (explicit: auto-sized columns are
#: measured on idle, and a screen drawn before that cut the rows to the header's width).
_COLUMNS = (("at", 6), ("instance path", 24), ("keyword", 10), ("expected", 12), ("actual", 12))
#: The least width the message is given. Narrower, expected and actual are left out (the
#: message says them in words): at 80 columns the message began at the right edge.
_MIN_MESSAGE = 30
#: A cell's padding, left and right.
_PADDING = 2


class ProblemsTable(LiteralTable[Any]):
    """Rows of ``(at, instance path, keyword, expected, actual, message)``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row")
        self._rows: list[tuple[Any, ...]] = []
        """The rows shown, all six cells each (a narrow table shows fewer)."""
        self._laid_out_at: int | None = None
        """The width the rows were last laid out for."""
        self.can_focus = False  # until it lists a problem (``show_rows``)

    def show_rows(self, rows: list[tuple[Any, ...]]) -> None:
        """Replace the rows (the same rows at the same width are left as they are)."""
        if rows == self._rows and self._laid_out_at == self._width():
            return
        self._rows = rows
        # Empty, it keeps its place on screen but is no stop for tab or escape.
        self.can_focus = bool(rows)
        self._lay_out()

    def on_resize(self, _event: events.Resize) -> None:
        # Only a new width changes the layout. The table growing to fit its rows (shown
        # after a keystroke, or wrapped rows measured) keeps it: laying the rows out again
        # then drew the table twice between a keystroke and its error on screen.
        if self._laid_out_at != self._width():
            self._lay_out()

    def _width(self) -> int:
        return self.scrollable_content_region.width or self.app.size.width - 4

    def _lay_out(self) -> None:
        width = self._laid_out_at = self._width()
        columns = list(_COLUMNS)
        message = width - sum(w + _PADDING for _, w in columns) - _PADDING
        if message < _MIN_MESSAGE:
            columns = columns[:3]
            message = width - sum(w + _PADDING for _, w in columns) - _PADDING
        self.clear(columns=True)
        for label, column_width in columns:
            self.add_column(label, width=column_width)
        self.add_column("message", width=max(message, _MIN_MESSAGE))
        for row in self._rows:
            # height None: as many lines as the wrapped message needs.
            self.add_row(*row[: len(columns)], _wrapping(row[-1]), height=None)
        if self.is_mounted:
            # DataTable measures new rows when it is next idle, after a frame that drew
            # them 0 lines high (the error appeared one frame late): measured now, as
            # ``_on_idle`` measures them, the next frame shows them.
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            self._update_dimensions(new_rows)


def _wrapping(cell: Any) -> Any:
    """The message cell, allowed to wrap (cells of agent text are made not to)."""
    if isinstance(cell, Text):
        cell = cell.copy()
        cell.no_wrap = False
    return cell
