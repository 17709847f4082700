"""``LiteralTable``: the table of ``literal.py``, in a module of its own because Textual's
``DataTable`` costs some 10 ms to import and the first screen (the Overview) has no table.
"""

from __future__ import annotations

from rich.text import Text, TextType
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, ColumnKey, RowKey

from sia_tui.tui.widgets.literal import inert_text, shown


class LiteralTable(DataTable[CellType]):
    """A ``DataTable`` whose cells and column labels are never markup; a row key the table
    already has (a hand-edited history index) is dropped instead of crashing the app."""

    def add_column(
        self,
        label: TextType,
        *,
        width: int | None = None,
        key: str | None = None,
        default: CellType | None = None,
    ) -> ColumnKey:
        text = Text(label) if isinstance(label, str) else label
        return super().add_column(inert_text(text), width=width, key=key, default=default)

    def add_row(
        self,
        *cells: CellType,
        height: int | None = 1,
        key: str | None = None,
        label: TextType | None = None,
    ) -> RowKey:
        if key is not None and key in self.rows:
            key = None
        if isinstance(label, str):
            label = Text(label)
        return super().add_row(
            *(shown(c) for c in cells),
            height=height,
            key=key,
            label=None if label is None else inert_text(label),
        )

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: CellType,
        *,
        update_width: bool = False,
    ) -> None:
        super().update_cell(row_key, column_key, shown(value), update_width=update_width)
