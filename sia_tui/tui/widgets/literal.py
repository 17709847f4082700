"""The widgets every text on screen goes through: none parses a ``str`` as markup, none
draws a control character, whatever a screen hands it.

Textual reads a ``str`` as markup in a Static's content, an option or a Select's prompt, a
Tree label and a DataTable cell: ``[@click=app.quit]`` in a skill name closed the app on a
click, and ``[/x]`` crashed it. And ``Content`` draws what it holds: an ``ESC ] 0`` in a
step title set the window title. These subclasses read a ``str`` as plain text and pass
whatever they show through ``inert``, which turns a control or format character left in
``Content`` into a visible one (``AgentText`` has none; a run's field put in ``Content``
by hand may). Screens show agent text as ``DisplayPolicy.literal`` makes it and build
their widgets from this module only (``tests/tui/test_literal_widgets.py`` holds every
module of ``sia_tui.tui`` to that); toasts are the app's ``notify``. Its table is in
``literal_table.py``: Textual's ``DataTable`` costs the first screen, which has none, some
10 ms to import.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any, Self, TypeVar

from rich.text import Text, TextType
from textual.content import Content
from textual.widgets import Input, OptionList, Select, Static, Tree
from textual.widgets.option_list import Option, OptionDoesNotExist
from textual.widgets.tree import TreeDataType

from sia_tui.core.output import printable_in_place
from sia_tui.tui.display import AgentText

if TYPE_CHECKING:
    from textual.visual import VisualType

SelectValue = TypeVar("SelectValue", bound=Hashable)


def inert(content: Content) -> Content:
    """``content`` with every control or format character a visible one, spans kept."""
    text = content.plain
    shown = printable_in_place(text)
    if shown == text:
        return content
    return Content(shown, list(content.spans))


def inert_text(text: Text) -> Text:
    """The same for a rich ``Text`` (Tree labels, DataTable cells)."""
    shown = printable_in_place(text.plain)
    if shown == text.plain:
        return text
    copy = text.copy()
    copy.plain = shown  # one character for one: the spans still fit
    return copy


def shown(value: Any) -> Any:
    """What a widget may draw of ``value``: a ``str`` as plain text (never markup), text
    made inert; anything else (a number, a rich renderable of sia-tui's own) as it is."""
    if isinstance(value, str):
        return Content(printable_in_place(value))
    if isinstance(value, Content):
        return inert(value)
    if isinstance(value, Text):
        return inert_text(value)
    return value


class LiteralStatic(Static):
    """A ``Static`` that shows a ``str`` as it is written and no control character."""

    def __init__(
        self,
        content: VisualType = "",
        *,
        expand: bool = False,
        shrink: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            shown(content),
            expand=expand,
            shrink=shrink,
            markup=False,
            name=name,
            id=id,
            classes=classes,
            disabled=disabled,
        )

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        new = shown(content)
        if same_content(new, self.content):
            # Screens set their text again on every run update (two in three updates in a
            # journey changed nothing); each one laid out and drew the widget again.
            return
        super().update(new, layout=layout)


def same_content(new: object, old: object) -> bool:
    """Both ``Content`` with the same text and the same styles over it (``Content``'s own
    ``==`` compares the text only)."""
    if not isinstance(new, Content) or not isinstance(old, Content):
        return False
    return new.plain == old.plain and list(new.spans) == list(old.spans)


def option(prompt: Content, *, id: str | None = None, disabled: bool = False) -> Option:
    """An option of a ``LiteralOptionList`` (typed: its prompt is never a ``str``)."""
    return Option(inert(prompt), id=id, disabled=disabled)


class LiteralOptionList(OptionList):
    """An ``OptionList`` whose prompts are never markup; an option id the list already has
    (an agent's two skills with one id) is dropped instead of crashing the app; every option
    is measured at the width it is drawn."""

    def __init__(
        self,
        *content: Option | VisualType | None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
        compact: bool = False,
    ) -> None:
        super().__init__(
            *content,
            name=name,
            id=id,
            classes=classes,
            disabled=disabled,
            markup=False,
            compact=compact,
        )

    def add_options(self, new_options: Iterable[Option | VisualType | None]) -> Self:
        ids: set[str] = set()  # of this batch; the list's own are looked up (one by one)
        options: list[Option | None] = []
        for item in new_options:
            if item is None:
                options.append(None)
                continue
            if not isinstance(item, Option):
                item = Option(item)
            unique = item.id if item.id is not None and not self._has(item.id, ids) else None
            if unique is not None:
                ids.add(unique)
            options.append(Option(shown(item.prompt), id=unique, disabled=item.disabled))
        return super().add_options(options)

    def _has(self, option_id: str, batch: set[str]) -> bool:
        if option_id in batch:
            return True
        try:
            self.get_option(option_id)
        except OptionDoesNotExist:
            return False
        return True

    def watch_show_vertical_scrollbar(self) -> None:
        """Textual measures each option once, at the width the list has, and keeps it until
        the list is resized; its own scroll bar coming or going changes that width, not the
        list's size. Filled while it showed no bar, an option that wrapped lost its last line
        once drawn beside the bar the list then added."""
        if self.option_count:
            # Setting a prompt drops every measure the list holds (its public way to do so);
            # the options are measured again when next drawn, at the width they have then.
            self.replace_option_prompt_at_index(0, self.get_option_at_index(0).prompt)

    def replace_option_prompt(self, option_id: str, prompt: VisualType) -> Self:
        return super().replace_option_prompt(option_id, shown(prompt))

    def replace_option_prompt_at_index(self, index: int, prompt: VisualType) -> Self:
        return super().replace_option_prompt_at_index(index, shown(prompt))


def select_options(
    choices: Iterable[tuple[AgentText, SelectValue]],
) -> list[tuple[Content, SelectValue]]:
    """Agent values to offer in a ``LiteralSelect``: each shown as ``DisplayPolicy.literal``
    made it, its value kept as it is."""
    return [(prompt, value) for prompt, value in choices]


class LiteralSelect(Select[SelectValue]):
    """A ``Select`` whose option prompts are never markup."""

    # Textual marks a focused Select with a border, which compact removes: a compact picker
    # with the focus reads like a focused compact checkbox, in the block cursor's colours.
    DEFAULT_CSS = """
    LiteralSelect.-textual-compact:focus > SelectCurrent {
        color: $block-cursor-foreground;
        background: $block-cursor-background;
        text-style: $block-cursor-text-style;
    }
    """

    def __init__(self, options: Iterable[tuple[Any, SelectValue]], **kwargs: Any) -> None:
        super().__init__(_prompts(options), **kwargs)

    def set_options(self, options: Iterable[tuple[Any, SelectValue]]) -> None:
        super().set_options(_prompts(options))


def _prompts(options: Iterable[tuple[Any, SelectValue]]) -> list[tuple[Any, SelectValue]]:
    return [(shown(prompt), value) for prompt, value in options]


def tree_label(text: AgentText) -> Text:
    """An agent's text as a ``LiteralTree`` label (Tree labels are rich ``Text``)."""
    return Text(text.plain)


class LiteralTree(Tree[TreeDataType]):
    """A ``Tree`` whose labels are never markup (every label passes ``process_label``)."""

    def process_label(self, label: TextType) -> Text:
        text = Text(label) if isinstance(label, str) else label
        return super().process_label(inert_text(text))


class LiteralInput(Input):
    """An ``Input`` whose value never holds a control character: a value prefilled from an
    agent (a skill id) is drawn as it is, and an ``ESC`` in it would reach the terminal."""

    def validate_value(self, value: str) -> str:
        return printable_in_place(value, keep_newlines=False)
