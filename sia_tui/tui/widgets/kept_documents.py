"""Textual's TextArea documents, answering their whole-document questions without a pass
over every line, and answering exactly what Textual's own ``Document`` and
``WrappedDocument`` answer after any sequence of edits (``tests/tui/test_kept_documents.py``
runs both side by side).

TextArea asks two whole-document questions for every line it draws: the wrapped height
(a sum over every line) and the text (every line joined, to decide whether to show a
placeholder). In a 100 KB (4,000-line) argument document one repaint cost some 40 ms
between a keystroke and its error on screen.

Nothing here skips work Textual does: an earlier version did not wrap again at an unchanged
width, but TextArea wraps the whole document after an edit that widens the line-number
gutter (9 to 10 lines) instead of wrapping the edited range, and the wrapping was left a
line short (the editor crashed on the next cursor move). Each answer here is either
recomputed after the one method that changes what it is computed from, or read from a
structure that holds it by construction.
"""

from __future__ import annotations

from itertools import repeat

from rich.cells import cell_len
from textual.expand_tabs import get_tab_widths
from textual.geometry import Size
from textual.widgets.text_area import Document, EditResult, Location, WrappedDocument


class KeptText(Document):
    """A ``Document`` whose ``text`` is joined once per edit, not once per drawn line, and
    whose size (the widest line) is measured once per edit, not once per resize."""

    _kept_text: str | None = None
    _kept_size: tuple[int, Size] | None = None
    edits = 0
    """How many times the lines changed: a wrapping made since the last change still holds."""

    @property
    def text(self) -> str:
        if self._kept_text is None:
            self._kept_text = super().text
        return self._kept_text

    def get_size(self, tab_width: int) -> Size:
        if self._kept_size is None or self._kept_size[0] != tab_width:
            self._kept_size = (tab_width, super().get_size(tab_width))
        return self._kept_size[1]

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        # The only method that changes the lines (TextArea never writes ``lines`` itself).
        # Measuring all of them again took 18 ms per keystroke in 1 MB: the widest line is
        # kept unless the edit removes it, and lines the edit does not touch are unchanged.
        kept, self._kept_text, self._kept_size = self._kept_size, None, None
        self.edits += 1
        top, bottom = sorted((start, end))
        last = min(bottom[0], self.line_count - 1)
        widest_removed = self._widest(top[0], last, kept[0]) if kept else 0
        result = super().replace_range(start, end, text)
        if kept is not None and widest_removed < kept[1].width:
            tab_width, size = kept
            added = self._widest(top[0], result.end_location[0], tab_width)
            self._kept_size = (tab_width, Size(max(size.width, added), self.line_count))
        return result

    def _widest(self, first: int, last: int, tab_width: int) -> int:
        """The cell width of the widest of lines ``first`` to ``last``, as ``get_size``."""
        lines = range(first, last + 1)
        return max((cell_len(self.get_line(i).expandtabs(tab_width)) for i in lines), default=0)


class KeptHeight(WrappedDocument):
    """A ``WrappedDocument`` that answers its height without a sum over every line and wraps
    at width 0 (no soft wrap, the argument editor's only mode) without Textual's per-line
    tab scan, both only where the answer is the same by construction."""

    _wrapped_for: tuple[int, int, int] | None = None
    """(width, tab width, the document's ``edits``) its tables were last made for, by a
    whole wrap or by ``wrap_range`` after an edit."""

    def _state(self, width: int) -> tuple[int, int, int] | None:
        document = self.document
        if not isinstance(document, KeptText):
            return None  # no edit count: never skip
        return (width, self._tab_width, document.edits)

    @property
    def height(self) -> int:
        if self._width == 0:
            # At width 0 both ``wrap`` and ``wrap_range`` store no wrap offsets ([]) for
            # every line, and only ``wrap`` changes the width: every line is one row, and
            # Textual's sum of (offsets + 1) is the number of lines it holds.
            return len(self._wrap_offsets)
        return super().height

    def wrap(self, width: int, tab_width: int | None = None) -> None:
        # TextArea wraps the whole document on every resize, one that keeps the width
        # included (the Problems table growing under the editor: 0.5 s in 1 MB), and after
        # an edit that widens the gutter. When no line changed since the tables were last
        # made (by a wrap, or by wrap_range after the last edit) at the same width and tab
        # width, a new pass builds the same tables (the differential test holds it).
        if tab_width:
            self._tab_width = tab_width
        state = self._state(width)
        if state is not None and state == self._wrapped_for:
            return
        self._wrap_whole(width)
        self._wrapped_for = self._state(width)

    def wrap_range(self, start: Location, old_end: Location, new_end: Location) -> None:
        super().wrap_range(start, old_end, new_end)
        if len(self._wrap_offsets) != self.document.line_count:
            # Textual's undo (and redo) of a batch of edits gives one range for all of them
            # in mixed coordinates: after a paste holding a newline, a backspace, an undo, a
            # backspace (it joins the paste's batch) and an undo, the tables kept a line the
            # document no longer has, and drawing it (where the editor has room for it) raised
            # an IndexError. A range that leaves a line too many or too few is wrong: the
            # whole document is wrapped again instead.
            self._wrap_whole(self._width)
        self._wrapped_for = self._state(self._width)

    def _wrap_whole(self, width: int) -> None:
        # At width 0 Textual's pass scans every line for tabs with a regular expression; a
        # line without a tab has one section of width 0 (none when empty), so only lines
        # with a tab need it.
        if width:
            super().wrap(width, self._tab_width)
            return
        self._width = 0
        lines = self.document.lines
        rows = range(len(lines))
        tab = self._tab_width
        self._wrap_offsets = [[] for _ in rows]
        self._offset_to_line_info = list(zip(rows, repeat(0)))
        self._line_index_to_offsets = [[row] for row in rows]
        self._tab_width_cache = [
            _tab_widths(line, tab) if "\t" in line else [0] if line else [] for line in lines
        ]


def _tab_widths(line: str, tab_width: int) -> list[int]:
    """What ``WrappedDocument.wrap`` keeps for a line with a tab: the width each tab
    expands to, and 0 for the section after the last tab (``get_tab_widths``' sections)."""
    return [width for _, width in get_tab_widths(line, tab_width)]


def kept(document: Document) -> Document:
    """``document`` answering from what it kept, when it is a plain, fresh ``Document``."""
    if type(document) is Document:
        document.__class__ = KeptText
    return document


def kept_wrapped(wrapped: WrappedDocument) -> WrappedDocument:
    """``wrapped`` answering from what it kept, when it is a plain, fresh one."""
    if type(wrapped) is WrappedDocument:
        wrapped.__class__ = KeptHeight
    return wrapped
