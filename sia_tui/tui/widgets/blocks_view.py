"""A scrolling view of text blocks that renders only the rows on screen.

Blocks are small styled ``Content`` (a record's header, a verdict with its findings), word
wrapped like a ``Static``, and ``ArtifactText`` (an artifact's pretty JSON, possibly
megabytes), whose lines are folded at the view's width so the number of rows each takes is
known from its width alone. Only the rows on screen are highlighted and rendered
(``render_line``, textual's Line API); an artifact still being formatted is finished in a
thread worker and the view grows when it is done. Text selection and copying (the screen's
``ctrl+c``) work on the shown text.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from rich.segment import Segment
from textual import events, work
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Offset, Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style

from sia_tui.tui.artifact_text import ArtifactText
from sia_tui.tui.widgets.literal import inert

Block = Content | ArtifactText


@dataclass
class _Placed:
    """Where one block (or an artifact's closing note) sits at the current width."""

    row: int
    """The block's first row in the view."""
    line: int
    """Its first line in the selectable text."""
    rows: int
    wrapped: list[Content] = field(default_factory=list)
    """A content block's rows (empty for an artifact)."""
    text: ArtifactText | None = None
    wide: list[int] = field(default_factory=list)
    """The artifact's lines wider than the view, ..."""
    before: list[int] = field(default_factory=list)
    """... the extra rows of the wide lines before each (one more item: all of them) ..."""
    starts: list[int] = field(default_factory=list)
    """... and the first row of each wide line."""

    def locate(self, row: int) -> tuple[int, int]:
        """The artifact line shown at ``row`` (relative to the block) and which fold of it."""
        k = bisect_right(self.starts, row) - 1
        if k >= 0 and row - self.starts[k] <= self.before[k + 1] - self.before[k]:
            return self.wide[k], row - self.starts[k]
        return row - self.before[k + 1], 0


class BlocksView(ScrollView, can_focus=True):
    """Content blocks and big artifacts in one scrolling pane."""

    ALLOW_SELECT = True
    DEFAULT_CSS = """
    BlocksView { height: 1fr; overflow-x: hidden; overflow-y: auto; scrollbar-gutter: stable; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._blocks: tuple[Block, ...] = ()
        self._placed: list[_Placed] = []
        self._starts: list[int] = []
        self._first_of_block: list[int] = []
        self._width = 0
        self._strips: LRUCache[int, Strip] = LRUCache(1024)

    # -- what is shown -------------------------------------------------------------------------
    def show(self, blocks: Sequence[Block]) -> None:
        """Show ``blocks``; the same artifacts again keep the scroll position and highlights."""
        # Artifacts are made visible as they are formatted; a content block passes the gate
        # every text widget has (``widgets/literal.py``).
        blocks = tuple(b if isinstance(b, ArtifactText) else inert(b) for b in blocks)
        same = _artifacts(blocks) == _artifacts(self._blocks)
        self._blocks = blocks
        self._relayout()
        if not same:
            self.scroll_to(0, 0, animate=False, immediate=True)
        for text in _artifacts(blocks):
            if not text.complete:
                self._finish(text)

    @property
    def plain_text(self) -> str:
        """Everything the view shows, as text (blocks unwrapped, artifacts as far as known)."""
        parts: list[str] = []
        for block in self._blocks:
            if isinstance(block, ArtifactText):
                parts.extend(block.lines)
                note = block.note()
                if note is not None:
                    parts.append(note.plain)
            else:
                parts.append(block.plain)
        return "\n".join(parts)

    def row_of_block(self, index: int) -> int:
        """The first row of block ``index`` (to scroll to it)."""
        return self._placed[self._first_of_block[index]].row

    @work(thread=True, group="artifact-text")
    def _finish(self, text: ArtifactText) -> None:
        """Format the rest of a big artifact off the UI thread, then grow the view."""
        text.finish()
        self.app.call_from_thread(self._grown, text)

    def _grown(self, text: ArtifactText) -> None:
        if text in _artifacts(self._blocks):
            self._relayout()

    # -- layout --------------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width != self._width:
            self._relayout()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def _relayout(self) -> None:
        """Place every block at the current width (cheap: artifacts cache their folds)."""
        width = self._width = max(1, self.scrollable_content_region.width)
        placed: list[_Placed] = []
        first: list[int] = []
        row = line = 0
        for block in self._blocks:
            first.append(len(placed))
            items: list[Block] = [block]
            if isinstance(block, ArtifactText) and (note := block.note()) is not None:
                items.append(note)
            for item in items:
                if isinstance(item, ArtifactText):
                    here = _place_artifact(item, width, row, line)
                    line += len(item.lines)
                else:
                    wrapped = item.wrap(width) if item.plain else [item]
                    here = _Placed(row, line, len(wrapped), wrapped)
                    line += len(wrapped)
                placed.append(here)
                row += here.rows
        self._placed, self._first_of_block = placed, first
        self._starts = [p.row for p in placed]
        self._strips.clear()
        self.virtual_size = Size(width, row)
        self.refresh()

    # -- rendering -----------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        row = self.scroll_offset.y + y
        width = self._width
        base = self.visual_style
        if not self._placed or row >= self.virtual_size.height:
            return Strip.blank(width, base.rich_style)
        placed = self._placed[bisect_right(self._starts, row) - 1]
        local = row - placed.row
        if placed.text is None:
            line, fold, content = placed.line + local, 0, placed.wrapped[local]
        else:
            index, fold = placed.locate(local)
            line, content = placed.line + index, placed.text.styled(index)
        strip = self._line_strip(line, content, base)
        start = fold * width
        return (
            strip.crop(start, start + width)
            .extend_cell_length(width, base.rich_style)
            .apply_offsets(start, line)
        )

    def _line_strip(self, line: int, content: Content, base: Style) -> Strip:
        """Selectable line ``line`` rendered whole (cached while nothing is selected)."""
        selection = self.text_selection
        if selection is None and (cached := self._strips.get(line)) is not None:
            return cached
        if selection is not None and (span := selection.get_span(line)) is not None:
            start, end = span
            chosen = Style.from_styles(self.screen.get_component_styles("screen--selection"))
            content = content.stylize(chosen, start, len(content) if end == -1 else end)
        segments = [
            Segment(text, style.rich_style)
            for text, style in content.render(base, end="", parse_style=self._get_style)
        ]
        strip = Strip(segments)
        if selection is None:
            self._strips[line] = strip
        return strip

    # -- selection -----------------------------------------------------------------------------
    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The selected text: only the selected lines are joined (a 5 MB artifact is not)."""
        lines = self._selectable_lines()
        start, end = selection
        if start is None or end is None:
            return selection.extract("\n".join(lines)), "\n"
        part = "\n".join(lines[start.y : end.y + 1])
        moved = Selection(Offset(start.x, 0), Offset(end.x, end.y - start.y))
        return moved.extract(part), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self._strips.clear()
        self.refresh()

    def _selectable_lines(self) -> list[str]:
        """The lines selection offsets count: wrapped rows of blocks, artifact lines whole."""
        lines: list[str] = []
        for placed in self._placed:
            if placed.text is None:
                lines.extend(content.plain for content in placed.wrapped)
            else:
                lines.extend(placed.text.lines)
        return lines


def _artifacts(blocks: Sequence[Block]) -> list[ArtifactText]:
    return [block for block in blocks if isinstance(block, ArtifactText)]


def _place_artifact(text: ArtifactText, width: int, row: int, line: int) -> _Placed:
    """An artifact's rows: one per line, more for each line wider than the view."""
    wide, extra = text.folds(width)
    before = [0, *accumulate(extra)]
    starts = [index + before[k] for k, index in enumerate(wide)]
    rows = len(text.lines) + before[-1]
    return _Placed(row, line, rows, text=text, wide=wide, before=before, starts=starts)
