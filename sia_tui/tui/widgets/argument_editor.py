"""A JSON TextArea that underlines validation errors at their line and column."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import TextArea
from textual.widgets.text_area import Document, DocumentBase, WrappedDocument

from sia_tui.core.output import printable_in_place
from sia_tui.tui.display import PLAIN, DisplayPolicy
from sia_tui.tui.widgets.kept_documents import kept, kept_wrapped

_ERROR_STYLE = Style(underline=True, color="red", bold=True)


class ArgumentEditor(TextArea):
    """Edits the skill arguments; ``mark_errors`` underlines located problems."""

    # Both are written under the editor (its border subtitle) and listed by F1; the footer
    # has no room for them beside the screen's keys at 80 columns.
    BINDINGS = [
        Binding(
            "escape",
            "leave",
            "Leave",
            show=False,
            id="editor.leave",
            tooltip="Focus the next field; then the number keys switch screens",
        ),
        # TextArea's own key, which Textual lists nowhere: F1 and the subtitle name it.
        Binding(
            "f7",
            "select_all",
            "Select all",
            show=False,
            id="editor.select_all",
            tooltip="Select the whole text (then type or paste to replace it)",
        ),
    ]

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(
            text, id=id, tab_behavior="indent", show_line_numbers=True, soft_wrap=False
        )
        self._marks: dict[int, list[tuple[int, int]]] = {}
        """0-based line -> (start, end) character spans to underline."""
        self.policy: DisplayPolicy = PLAIN
        """Masks secret values in place (the screen sets the app's policy)."""

    # TextArea builds its documents itself (at start and for each loaded text); each one,
    # fresh, becomes one that keeps its whole-document answers (``kept_documents``).
    @property
    def document(self) -> DocumentBase:
        return self._document

    @document.setter
    def document(self, document: DocumentBase) -> None:
        self._document = kept(document) if isinstance(document, Document) else document

    @property
    def wrapped_document(self) -> WrappedDocument:
        return self._wrapped

    @wrapped_document.setter
    def wrapped_document(self, wrapped: WrappedDocument) -> None:
        self._wrapped = kept_wrapped(wrapped)

    def _recompute_cursor_offset(self) -> None:
        # Textual's undo and redo refresh the size before they put the selection back, so a
        # vertical scrollbar that goes away (a 100 KB paste undone) asks where a cursor past
        # the end of the shorter text is, and Textual raises. The nearest location that
        # exists answers until the selection is back; a cursor that exists is unchanged.
        location = self.clamp_visitable(self.cursor_location)
        self._cursor_offset = self.wrapped_document.location_to_offset(location)

    def replace_all(self, text: str) -> None:
        """Replace the whole text as one edit: unlike ``load_text``, which clears the edit
        history, ctrl+z then brings the previous text back (f3 and f4 lose no work)."""
        self.history.checkpoint()
        self.replace(text, self.document.start, self.document.end)
        self.history.checkpoint()
        self.move_cursor((0, 0))

    def mark_errors(self, positions: list[tuple[int, int]]) -> None:
        """Underline from each 1-based (line, column) to the end of its token."""
        marks: dict[int, list[tuple[int, int]]] = {}
        for line, column in positions:
            index = line - 1
            if not 0 <= index < self.document.line_count:
                continue
            text = self.document.get_line(index)
            start = max(0, min(column - 1, max(len(text) - 1, 0)))
            end = _token_end(text, start)
            marks.setdefault(index, []).append((start, end))
        if marks != self._marks:
            changed = {
                i for i in marks.keys() | self._marks.keys() if marks.get(i) != self._marks.get(i)
            }
            self._marks = marks
            self._redraw_lines(changed)

    def _redraw_lines(self, lines: set[int]) -> None:
        """Draw ``lines`` (0-based document lines) again, and no other."""
        if self.soft_wrap:  # a line may be several rows: every row is drawn again
            self.notify_style_update()
            self.refresh()
            return
        # The TextArea caches its rendered rows by (among others) the row, which without
        # soft wrap is the document line. Clearing the whole cache drew every visible
        # line again after each check.
        cache = self._line_cache
        cached = cache.keys()  # LRUCache is not iterable itself
        for key in [key for key in cached if key[2] in lines]:
            cache.discard(key)
        for line in lines:
            self.refresh_lines(line)

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        # Values marked secret are masked here too (docs/TUI.md), and a control character
        # (a pasted ESC, a session's arguments) drawn as a visible one: same columns.
        masked = printable_in_place(self.policy.mask_in_place(line.plain))
        if masked != line.plain:
            line.plain = masked
        for start, end in self._marks.get(line_index, ()):
            line.stylize(_ERROR_STYLE, start, end)
        return line

    def action_leave(self) -> None:
        self.screen.focus_next()


def _token_end(text: str, start: int) -> int:
    """End of the JSON token starting at ``start`` (at least one character)."""
    end = start + 1
    in_string = start < len(text) and text[start] == '"'
    while end < len(text):
        char = text[end]
        if in_string:
            if char == '"' and text[end - 1] != "\\":
                return end + 1
        elif char in ",}]" or char.isspace():
            return end
        end += 1
    return max(end, start + 1)
