"""The argument editor keeps its document's height and text between edits (Textual
computed both over the whole document for each line drawn); what is typed or
deleted must still show, and the text validated must be the text on screen."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.widgets.text_area import Document, WrappedDocument

from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.kept_documents import KeptHeight, KeptText


class EditorApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ArgumentEditor("\n".join(f'"line {i}",' for i in range(40)))


def bottom_text(editor: ArgumentEditor) -> str:
    """The last line drawn inside the editor."""
    height = editor.scrollable_content_region.height
    return "".join(segment.text for segment in editor.render_line(height - 1))


async def test_typed_lines_show_at_the_bottom_and_deleted_ones_go() -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 12)) as pilot:
        editor = app.query_one(ArgumentEditor)
        editor.move_cursor(editor.document.end)
        await pilot.press("enter", *'"typed', "enter", *'"last"')
        editor.scroll_end(animate=False)
        await pilot.pause()
        assert editor.wrapped_document.height == editor.document.line_count == 42
        assert '"last"' in bottom_text(editor)
        assert editor.text.endswith('"line 39",\n"typed\n"last"')

        for _ in range(len('"last"') + 1 + len('"typed') + 1):
            await pilot.press("backspace")
        editor.scroll_end(animate=False)
        await pilot.pause()
        assert editor.wrapped_document.height == editor.document.line_count == 40
        assert '"line 39",' in bottom_text(editor)
        assert editor.text.endswith('"line 38",\n"line 39",')


async def test_a_loaded_text_gets_its_own_height_and_text() -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 12)) as pilot:
        editor = app.query_one(ArgumentEditor)
        assert editor.wrapped_document.height == 40
        editor.load_text("\n".join(f"{i}," for i in range(100)))
        editor.scroll_end(animate=False)
        await pilot.pause()
        assert editor.wrapped_document.height == editor.document.line_count == 100
        assert "99," in bottom_text(editor)
        assert editor.text.startswith("0,\n1,") and editor.text.endswith("99,")


async def test_an_edit_joins_the_text_once_and_measures_only_the_lines_it_touches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The editor's documents become the kept classes by a ``__class__`` swap on what
    TextArea builds; a Textual release that builds them another way would turn it off
    without an error (every drawn line joining the whole text again). So: the documents are
    the kept classes, and drawing the editor three times after an edit joins the text once.
    The widest line is updated from the edited lines alone and the unwrapped height is the
    number of lines held: summing and measuring 40,000 lines again cost 27 ms per keystroke
    in a 1 MB document."""
    computed = {"text": 0, "height": 0, "size": 0}
    join: property = vars(Document)["text"]
    height: property = vars(WrappedDocument)["height"]

    def counted_join(document: Document) -> str:
        computed["text"] += 1
        text: str = join.__get__(document)
        return text

    def counted_height(wrapped: WrappedDocument) -> int:
        computed["height"] += 1
        lines: int = height.__get__(wrapped)
        return lines

    get_size = Document.get_size

    def counted_size(document: Document, tab_width: int) -> Size:
        computed["size"] += 1
        return get_size(document, tab_width)

    monkeypatch.setattr(Document, "text", property(counted_join))
    monkeypatch.setattr(WrappedDocument, "height", property(counted_height))
    monkeypatch.setattr(Document, "get_size", counted_size)
    app = EditorApp()
    async with app.run_test(size=(60, 12)) as pilot:
        editor = app.query_one(ArgumentEditor)
        assert type(editor.document) is KeptText
        assert type(editor.wrapped_document) is KeptHeight
        computed.update(text=0, height=0, size=0)
        editor.insert('"typed",\n', (0, 0))
        for _ in range(3):
            lines = [editor.render_line(y) for y in range(editor.size.height)]
        await pilot.pause()
        assert computed == {"text": 1, "height": 0, "size": 0}
        assert '"typed",' in "".join(segment.text for segment in lines[0])


@pytest.mark.parametrize("width", [0, 7])
def test_kept_height_and_width_follow_every_kind_of_edit(width: int) -> None:
    """What is kept after each edit equals what Textual computes over the whole document:
    lines inserted, joined, emptied, the widest one shortened and widened, wrapped or not."""
    document = KeptText("short\n" + "a much longer line here\n" * 3 + "end")
    wrapped = KeptHeight(document, width=width)
    assert document.get_size(4) and wrapped.height  # kept from here on
    edits = [
        ((0, 0), (0, 0), "new\nlines\n"),
        ((3, 2), (4, 5), ""),  # joins two lines, one of them the widest
        ((1, 0), (1, 5), "\t" + "w" * 30),  # the new widest, with a tab
        ((1, 0), (1, 31), "x"),  # the widest shrinks
        ((0, 0), (document.line_count - 1, 3), ""),  # everything goes
        ((0, 0), (0, 0), "one\ntwo\n\n"),
    ]
    for start, end, text in edits:
        old_end = max(start, end)
        result = document.replace_range(start, end, text)
        wrapped.wrap_range(min(start, end), old_end, result.end_location)
        fresh = Document(document.text)
        assert document.get_size(4) == fresh.get_size(4)
        assert wrapped.height == WrappedDocument(fresh, width=width).height
