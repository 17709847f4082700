"""One artifact's pretty JSON as the lines a person reads, prepared lazily.

A 5 MB artifact is about 270,000 pretty lines. Formatting, escaping and splitting them all
takes about 0.4 s, and highlighting them all with pygments several seconds and hundreds of
megabytes, so nothing here does that on the UI thread:

- the first ``PREVIEW_CHARS`` (or, when the view is cut, the first ``limit``) characters are
  formatted at once, so the first screenful shows without waiting;
- ``finish`` (run in a thread worker) formats the rest, a piece at a time;
- ``styled`` highlights the lines a view asks for, ``CHUNK`` lines at a time, and keeps at
  most ``CACHED_CHUNKS`` chunks (the visible window and where the reader has just been).

The text is the same as ``json_content`` shows: control characters made visible and marked
secrets masked by the ``DisplayPolicy`` (pretty JSON has no raw newline inside a string,
so escaping line by line cannot split a secret or an escape).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from rich.cells import cell_len
from textual.content import Content

from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.jsontext import pretty_chunks

#: Characters formatted on the UI thread when the view shows everything (a few screenfuls).
PREVIEW_CHARS = 16 * 1024
#: The worker escapes and splits this much text at a time: a regex over megabytes would hold
#: the GIL, and so freeze the UI thread, for the whole scan.
PIECE_CHARS = 64 * 1024
#: Lines highlighted together (pygments' cost per call is worth sharing, a chunk is cheap).
CHUNK = 64
#: Highlighted chunks kept per artifact (about 4,000 lines): memory stays flat at any size.
CACHED_CHUNKS = 64
#: Longer lines are shown plain: colour is not worth running the lexer over a megabyte.
LINE_HIGHLIGHT_LIMIT = 2048

NOTE_STYLE = "italic $text-muted"


class ArtifactText:
    """The shown lines of ``value`` (pretty JSON), cut at ``limit`` characters unless None."""

    def __init__(self, value: Any, policy: DisplayPolicy, limit: int | None) -> None:
        self._policy = policy
        self._pieces = _line_pieces(pretty_chunks(value))
        self._lock = threading.Lock()
        self._styled: OrderedDict[int, list[Content]] = OrderedDict()
        self._folds: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self._state: tuple[list[str], list[int]] = ([], [])
        self.cut = False
        """Text beyond ``limit`` is not shown."""
        self.complete = True
        """Every line is formatted (else ``finish`` formats the rest)."""
        lines: list[str] = []
        cells: list[int] = []
        taken = 0
        for piece in self._pieces:
            gap = 1 if lines else 0  # the newline between two pieces
            if limit is not None and taken + gap + len(piece) > limit:
                # Cut where ``truncated`` cuts: at ``limit`` characters of the whole text.
                if limit - taken - gap >= 0:
                    self._add(piece[: limit - taken - gap], lines, cells)
                self.cut = True
                break
            self._add(piece, lines, cells)
            taken += gap + len(piece)
            if limit is None and taken >= PREVIEW_CHARS:
                self.complete = False
                break
        self._state = (lines, cells)

    def _add(self, piece: str, lines: list[str], cells: list[int]) -> None:
        """Append the escaped, masked lines of ``piece`` and their widths."""
        shown = self._policy.visible(piece).split("\n")
        lines.extend(shown)
        cells.extend(len(line) if line.isascii() else cell_len(line) for line in shown)

    def finish(self) -> None:
        """Format the rest (thread worker; safe to call twice, from any thread)."""
        with self._lock:
            if self.complete:
                return
            lines, cells = list(self.lines), list(self.cells)
            for piece in self._pieces:
                self._add(piece, lines, cells)
            # One assignment, so the UI thread never sees lines and widths of different texts.
            self._state = (lines, cells)
            self.complete = True

    # -- what a view reads ---------------------------------------------------------------------
    @property
    def lines(self) -> list[str]:
        return self._state[0]

    @property
    def cells(self) -> list[int]:
        """The width of each line in cells."""
        return self._state[1]

    def note(self) -> Content | None:
        """The line after the text: that more is coming, or that the rest is hidden."""
        if not self.complete:
            return Content.styled("… formatting the rest", NOTE_STYLE)
        if self.cut:
            return Content.styled("… more characters hidden (press a to show all)", NOTE_STYLE)
        return None

    def folds(self, width: int) -> tuple[list[int], list[int]]:
        """Lines wider than ``width`` and the extra rows each takes (cached per width)."""
        lines, cells = self._state
        key = (width, id(lines))
        if (cached := self._folds.get(key)) is not None:
            return cached
        wide = [i for i, n in enumerate(cells) if n > width]
        extra = [(cells[i] - 1) // width for i in wide]
        if len(self._folds) >= 4:  # a few widths: resizing back costs nothing
            self._folds.clear()
        self._folds[key] = (wide, extra)
        return wide, extra

    def styled(self, index: int) -> Content:
        """Line ``index`` highlighted (its chunk is highlighted together and cached)."""
        chunk = index // CHUNK
        offset = index - chunk * CHUNK
        cached = self._styled.get(chunk)
        if cached is None or offset >= len(cached):  # new, or highlighted before ``finish``
            cached = self._highlight(chunk)
            self._styled[chunk] = cached
            if len(self._styled) > CACHED_CHUNKS:
                self._styled.popitem(last=False)
        else:
            self._styled.move_to_end(chunk)
        return cached[offset]

    def _highlight(self, chunk: int) -> list[Content]:
        from textual.highlight import highlight

        lines = self.lines[chunk * CHUNK : (chunk + 1) * CHUNK]
        short = ["" if len(line) > LINE_HIGHLIGHT_LIMIT else line for line in lines]
        styled = highlight("\n".join(short), language="json").split("\n")
        if len(styled) != len(lines):  # the lexer added or lost a line: show it plain
            return [Content(line) for line in lines]
        return [
            Content(line) if len(line) > LINE_HIGHLIGHT_LIMIT else shown
            for line, shown in zip(lines, styled, strict=True)
        ]


def _line_pieces(chunks: Iterator[str]) -> Iterator[str]:
    """The text of ``chunks`` in pieces of whole lines, about ``PIECE_CHARS`` (or the first
    ``PREVIEW_CHARS``) each; joined with newlines they are the text."""
    buffer: list[str] = []
    size, wanted = 0, PREVIEW_CHARS
    for chunk in chunks:
        buffer.append(chunk)
        size += len(chunk)
        if size >= wanted:
            text = "".join(buffer)
            cut = text.rfind("\n")
            if cut >= 0:
                yield text[:cut]
                buffer, size, wanted = [text[cut + 1 :]], len(text) - cut - 1, PIECE_CHARS
    yield "".join(buffer)
