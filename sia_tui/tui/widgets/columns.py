"""Column widths that follow the screen: fixed columns keep theirs, the rest share the width."""

from __future__ import annotations

#: Border, scrollbar and a margin around a table.
TABLE_CHROME = 6

Columns = tuple[tuple[str, int | None], ...]


def column_widths(total: int, columns: Columns, *, minimum: int = 12) -> list[int]:
    """Fixed columns keep their width; the others share what is left (cell padding counted),
    each at least ``minimum``."""
    fixed = sum(width for _, width in columns if width is not None)
    shared = [label for label, width in columns if width is None]
    padding = 2 * len(columns)
    each = max(minimum, (total - TABLE_CHROME - fixed - padding) // max(1, len(shared)))
    return [width if width is not None else each for _, width in columns]
