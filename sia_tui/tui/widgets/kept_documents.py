"""Textual's TextArea documents with the whole-document answers kept between edits.

TextArea asks two whole-document questions for every line it draws: the wrapped height
(a sum over every line) and the text (every line joined, to decide whether to show a
placeholder). In a 100 KB (4,000-line) argument document one repaint cost some 40 ms
between a keystroke and its error on screen. Each answer changes only through one method, so it
is computed again after that method and read for free otherwise. It also wraps the whole
document again on every resize, even when the wrap width did not change.
"""

from __future__ import annotations

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
        self._kept_text = self._kept_size = None  # the only method that changes the lines
        return super().replace_range(start, end, text)


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
        self._kept_height = None
        super().wrap_range(start, old_end, new_end)


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
