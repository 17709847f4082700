"""The argument editor's kept documents answer exactly what Textual's own ``Document`` and
``WrappedDocument`` answer, after any sequence of edits.

Two editors run side by side: the argument editor (its documents are ``KeptText`` and
``KeptHeight``) and a stock ``TextArea`` set up the same way. Every step does to both what
a key, a paste, an undo or a resize does (the same TextArea methods the key handler, the
paste handler and the resize handler call), then compares everything the editor keeps or
answers faster: the text, the line count, the size, the wrapped height, every line's wrap
offsets and rows, the tab widths, the selection and the gutter. A wrapped document one
line short of its document (the crash: "The document line index 9 is out of bounds") is a
difference. A hypothesis state machine runs random sequences; the directed tests below it
cross each line-number gutter boundary both ways, and start from 0, 1 and 12,000 lines.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import methodcaller

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from textual.widgets import TextArea
from textual.widgets.text_area import Location, Selection

from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.kept_documents import KeptHeight, KeptText


class StockEditor(TextArea):
    """Textual's TextArea as the argument editor sets it up, wrapped at a chosen width
    (the width a terminal of some size leaves it; 0 is no soft wrap, the editor's mode)."""

    wrap_at = 0

    def __init__(self, text: str) -> None:
        super().__init__(text, tab_behavior="indent", show_line_numbers=True, soft_wrap=False)

    @property
    def wrap_width(self) -> int:
        return self.wrap_at


class KeptEditor(ArgumentEditor):
    """The argument editor, wrapped at a chosen width."""

    wrap_at = 0

    @property
    def wrap_width(self) -> int:
        return self.wrap_at


class SideBySide:
    """The same keys, pastes, undos and resizes, given to both editors."""

    def __init__(self, text: str) -> None:
        self.kept = KeptEditor(text)
        self.stock = StockEditor(text)
        for editor in self.both:
            # Batching by the clock would differ between two editors edited a moment apart;
            # ``checkpoint`` (time passing, a click elsewhere) ends a batch instead.
            editor.history.checkpoint_timer = float("inf")
        self.assert_same()

    @property
    def both(self) -> tuple[TextArea, TextArea]:
        return self.kept, self.stock

    def do(self, action: Callable[[TextArea], object]) -> None:
        for editor in self.both:
            action(editor)
        self._wrap_stock_again_where_its_range_was_wrong()
        self.assert_same()

    def _wrap_stock_again_where_its_range_was_wrong(self) -> None:
        """Where Textual's range wrap left the stock tables a line too many or too few (its
        undo or redo of a batch whose edits change the line count differently), the answer
        to match is Textual's own whole wrap: what the argument editor does there."""
        stock = self.stock
        if len(stock.wrapped_document._wrap_offsets) != stock.document.line_count:
            stock.wrapped_document.wrap(stock.wrap_width, stock.indent_width)

    # What the key handler, the paste handler and the resize handler call.
    def key(self, character: str) -> None:
        self.do(lambda e: e._replace_via_keyboard(character, *e.selection))

    def paste(self, text: str) -> None:
        def paste(editor: TextArea) -> None:
            result = editor._replace_via_keyboard(text, *editor.selection)
            if result is not None:
                editor.move_cursor(result.end_location)

        self.do(paste)

    def select(self, anchor: Location, cursor: Location) -> None:
        def select(editor: TextArea) -> None:
            editor.selection = Selection(
                editor.clamp_visitable(anchor), editor.clamp_visitable(cursor)
            )

        self.do(select)

    def resize(self, width: int) -> None:
        def resize(editor: TextArea) -> None:
            editor.wrap_at = width  # type: ignore[attr-defined]
            editor._rewrap_and_refresh_virtual_size()

        self.do(resize)

    def assert_same(self) -> None:
        kept, stock = self.kept, self.stock
        document, wrapped = kept.document, kept.wrapped_document
        assert type(document) is KeptText and type(wrapped) is KeptHeight
        reference, reference_wrapped = stock.document, stock.wrapped_document
        assert document.text == reference.text
        assert document.line_count == reference.line_count
        assert document.get_size(kept.indent_width) == reference.get_size(stock.indent_width)
        assert wrapped.height == reference_wrapped.height
        assert wrapped._wrap_offsets == reference_wrapped._wrap_offsets
        assert wrapped._line_index_to_offsets == reference_wrapped._line_index_to_offsets
        assert wrapped._offset_to_line_info == reference_wrapped._offset_to_line_info
        assert wrapped._tab_width_cache == reference_wrapped._tab_width_cache
        assert (wrapped._width, wrapped._tab_width) == (
            reference_wrapped._width,
            reference_wrapped._tab_width,
        )
        assert kept.selection == stock.selection
        assert kept.gutter_width == stock.gutter_width
        # One wrapped entry per document line: what every cursor move and drawn line reads.
        assert len(wrapped._wrap_offsets) == document.line_count


def numbered_lines(count: int) -> str:
    """``count`` lines of varied width, some with a tab or a wide character (0: empty).
    They repeat every 600 lines: measuring a line's width is cached by its text, and a
    large document is measured after every step (the stock one from scratch)."""
    shapes = ('  "item_{i}": {i},', "\t{i}\tx", "{i}", "", '"中文 {i}",', " " * 30 + "{i}")
    return "\n".join(shapes[i % len(shapes)].format(i=i % 600) for i in range(count))


LINE = st.text(st.sampled_from('ab "{}:,\t中é '), max_size=12)
PASTED = st.lists(LINE, min_size=2, max_size=16).map("\n".join)
#: A paste that alone crosses a boundary of 100 lines.
LONG_PASTE = st.integers(90, 130).map(numbered_lines)
LOCATION = st.tuples(st.integers(0, 1_100), st.integers(0, 40))


class EditorMachine(RuleBasedStateMachine):
    """Random sequences of what a person does in the editor, near a gutter boundary."""

    pair: SideBySide

    @initialize(lines=st.sampled_from([0, 1, 2, 8, 9, 10, 11, 98, 99, 100, 101, 999, 1_000]))
    def start(self, lines: int) -> None:
        self.pair = SideBySide(numbered_lines(lines))

    @rule(text=LINE)
    def type_characters(self, text: str) -> None:
        for character in text:
            self.pair.key(character)

    @rule()
    def enter(self) -> None:
        self.pair.key("\n")

    @rule(times=st.integers(1, 3))
    def backspace(self, times: int) -> None:
        for _ in range(times):
            self.pair.do(lambda e: e.action_delete_left())

    @rule()
    def delete(self) -> None:
        self.pair.do(lambda e: e.action_delete_right())

    @rule(text=st.one_of(PASTED, LONG_PASTE))
    def paste_at_the_cursor(self, text: str) -> None:
        self.pair.paste(text)

    @rule(anchor=LOCATION, cursor=LOCATION, text=st.one_of(PASTED, st.just("")))
    def paste_over_a_selection(self, anchor: Location, cursor: Location, text: str) -> None:
        self.pair.select(anchor, cursor)
        self.pair.paste(text)

    @rule(text=st.one_of(PASTED, LONG_PASTE, LINE))
    def select_all_and_replace(self, text: str) -> None:
        self.pair.do(lambda e: e.action_select_all())
        self.pair.paste(text)

    @rule(location=LOCATION)
    def move(self, location: Location) -> None:
        self.pair.do(lambda e: e.move_cursor(e.clamp_visitable(location)))

    @rule()
    def pause(self) -> None:
        """Time passes (or a click elsewhere): the next edit starts a new undo batch."""
        self.pair.do(lambda e: e.history.checkpoint())

    @rule()
    def undo(self) -> None:
        self.pair.do(lambda e: e.action_undo())

    @rule()
    def redo(self) -> None:
        self.pair.do(lambda e: e.action_redo())

    @rule(width=st.one_of(st.just(0), st.integers(1, 50)))
    def resize(self, width: int) -> None:
        self.pair.resize(width)

    @rule(tab_width=st.sampled_from([1, 2, 8]))
    def measure_at_another_tab_width(self, tab_width: int) -> None:
        kept, stock = self.pair.kept.document, self.pair.stock.document
        assert kept.get_size(tab_width) == stock.get_size(tab_width)

    @rule(lines=st.integers(0, 12))
    def load(self, lines: int) -> None:
        self.pair.do(lambda e: e.load_text(numbered_lines(lines)))

    @invariant()
    def same(self) -> None:
        if hasattr(self, "pair"):
            self.pair.assert_same()


EditorMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=25, deadline=None, database=None
)
test_kept_documents_answer_as_textual_does = EditorMachine.TestCase


# -- directed: every gutter boundary, both ways, by every kind of edit --------------------
def cross(pair: SideBySide, boundary: int) -> None:
    """Enter, backspace, undo and redo across ``boundary`` lines, from one line fewer."""
    pair.do(lambda e: e.move_cursor(e.document.end))
    pair.key("\n")  # Enter: one more line, a wider gutter
    assert pair.kept.document.line_count == boundary
    pair.do(lambda e: e.action_delete_left())  # and back
    pair.do(lambda e: e.action_undo())
    pair.do(lambda e: e.action_redo())
    pair.do(lambda e: e.action_undo())
    assert pair.kept.document.line_count == boundary
    pair.do(lambda e: e.action_undo())
    assert pair.kept.document.line_count == boundary - 1


@pytest.mark.parametrize("boundary", [10, 100, 1_000])
def test_each_gutter_boundary_crossed_by_every_kind_of_edit(boundary: int) -> None:
    pair = SideBySide(numbered_lines(boundary - 1))
    cross(pair, boundary)
    pair.do(lambda e: e.move_cursor((boundary // 2, 0)))
    pair.paste("{\n  pasted\n}")  # a multi-line paste at the cursor
    pair.do(lambda e: e.action_undo())
    pair.select((2, 1), (4, 0))
    pair.paste("one\ntwo\nthree")  # over a selection: one line more
    pair.select((1, 0), (3, 0))
    pair.paste("")  # a selection deleted: two lines fewer
    pair.do(lambda e: e.action_select_all())
    pair.paste(numbered_lines(boundary + 3))  # over select-all
    pair.resize(9)  # a resize: wrapped, then not
    pair.resize(0)
    pair.do(lambda e: e.action_undo())
    pair.do(lambda e: e.action_undo())
    pair.do(lambda e: e.action_redo())


def test_undoing_a_batch_whose_edits_change_the_line_count_differently() -> None:
    """A paste holding a newline, a backspace, an undo, a backspace (it joins the paste's
    undo batch) and an undo, then redo and undo: Textual's range wrap kept a line the
    document no longer had, and drawing it raised an IndexError
    (tests/tui/test_editor_journeys.py does it with keys)."""
    pair = SideBySide(numbered_lines(2))
    pair.paste("\n:")
    for action in ("delete_left", "undo", "delete_left", "undo", "redo", "undo"):
        pair.do(methodcaller(f"action_{action}"))
    assert pair.kept.text == numbered_lines(2)


def test_the_gutter_boundary_of_10000_lines() -> None:
    cross(SideBySide(numbered_lines(9_999)), 10_000)


#: A large document: past 10,000 lines, so its gutter has five digits, the widest any test
#: here reaches. Nothing in the kept documents depends on the size beyond the gutter's digits
#: (every answer is per line, or a length), and Textual's stock documents re-wrap every line
#: after each step of the comparison: 40,000 lines cost 9 s of CPU for the same property.
LARGE = 12_000


@pytest.mark.parametrize("lines", [0, 1, LARGE])
def test_documents_of_0_1_and_many_lines(lines: int) -> None:
    pair = SideBySide(numbered_lines(lines))
    pair.do(lambda e: e.move_cursor(e.document.end))
    for character in ',\n"':
        pair.key(character)
    pair.do(lambda e: e.action_delete_left())
    pair.paste("\n".join(["a", "\tb", "中c"] * 5))
    pair.resize(17)
    pair.do(lambda e: e.move_cursor((0, 0)))
    pair.key("\n")
    pair.resize(0)
    pair.do(lambda e: e.action_select_all())
    pair.paste("{}")
    while pair.kept.history.undo_stack:
        pair.do(lambda e: e.action_undo())
    assert pair.kept.text == pair.stock.text == numbered_lines(lines)
