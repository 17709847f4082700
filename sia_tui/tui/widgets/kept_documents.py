"""Textual's TextArea documents with the whole-document answers kept between edits.

TextArea asks two whole-document questions for every line it draws: the wrapped height
(a sum over every line) and the text (every line joined, to decide whether to show a
placeholder). In a 100 KB (4,000-line) argument document one repaint cost some 40 ms
between a keystroke and its error on screen. Each answer changes only through one method, so it
is computed again after that method and read for free otherwise. It also wraps the whole
document again on every resize, even when the wrap width did not change.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.geometry import Size
from textual.widgets.text_area import Document, EditResult, Location, WrappedDocument


class KeptText(Document):
    """A ``Document`` whose ``text`` is joined once per edit, not once per drawn line, and
    whose size (the widest line) is measured once per edit, not once per resize."""

    _kept_text: str | None = None
    _kept_size: tuple[int, Size] | None = None

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
        # The only method that changes the lines. Measuring all of them again took 18 ms
        # per keystroke in 1 MB: the widest line is kept unless the edit removes it.
        kept, self._kept_text, self._kept_size = self._kept_size, None, None
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
    """A ``WrappedDocument`` whose ``height`` is summed once per (re)wrap, and which is not
    wrapped again at the width it is already wrapped at."""

    _kept_height: int | None = None
    _wrapped_at: tuple[int, int] | None = None

    @property
    def height(self) -> int:
        if self._kept_height is None:
            self._kept_height = super().height
        return self._kept_height

    def wrap(self, width: int, tab_width: int | None = None) -> None:
        # TextArea wraps the whole document on every resize, a height change included (the
        # Problems table growing under the editor): 0.6 s for 1 MB. Edits keep the wrapping
        # in step (wrap_range), so the same width and tab width need no new pass.
        if (width, tab_width or self._tab_width) == self._wrapped_at:
            return
        self._kept_height = None
        super().wrap(width, tab_width)
        self._wrapped_at = (width, self._tab_width)

    def wrap_range(self, start: Location, old_end: Location, new_end: Location) -> None:
        # Summing every line's rows again took 9 ms per keystroke in 1 MB: the rows of the
        # edited lines are taken out before the rewrap and added back after it.
        kept, self._kept_height = self._kept_height, None
        top = min(start[0], old_end[0])
        removed = self._rows(top, max(start[0], old_end[0])) if kept is not None else 0
        super().wrap_range(start, old_end, new_end)
        if kept is not None:
            self._kept_height = kept - removed + self._rows(top, max(start[0], new_end[0]))

    def _rows(self, first: int, last: int) -> int:
        """How many rows lines ``first`` to ``last`` take (those that exist)."""
        rows = 0
        for index in range(max(first, 0), last + 1):
            try:
                rows += len(self.get_offsets(index)) + 1
            except ValueError:  # past the last line
                break
        return rows


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
