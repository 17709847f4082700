"""Agent text reaches the screen only through ``widgets/literal.py`` (and its table,
``literal_table.py``): what each of its widgets does with markup and escapes, and a scan of
``sia_tui/tui`` that holds every module to them (no Textual text widget built by hand,
markup only from sia-tui's own constants)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content, Span
from textual.widgets import Select, Static

import sia_tui.tui
from sia_tui.tui.display import PLAIN, AgentText
from sia_tui.tui.safe_output import SafeOutputApp
from sia_tui.tui.widgets.literal import (
    LiteralInput,
    LiteralOptionList,
    LiteralSelect,
    LiteralStatic,
    LiteralTree,
    inert,
    option,
    select_options,
    tree_label,
)
from sia_tui.tui.widgets.literal_table import LiteralTable

#: Live markup that runs an action when clicked, a tag that does not parse, an escape.
HOSTILE = "[@click=app.quit]quit[/][/oops]\x1b]0;pwned\x07\u009b2J\u202e"
TUI = Path(sia_tui.tui.__file__).parent
#: The literal widgets: the table has a module of its own (its import is not paid at start).
LITERAL = (TUI / "widgets" / "literal.py", TUI / "widgets" / "literal_table.py")


# -- the type ----------------------------------------------------------------------------------


def test_agent_text_is_made_by_the_display_policy_only() -> None:
    shown = PLAIN.literal(HOSTILE, style="bold")
    assert isinstance(shown, AgentText)
    assert shown.plain.startswith("[@click=app.quit]quit[/][/oops]␛]0;pwned␇\\u009b2J")
    assert shown.spans == [Span(0, len(shown.plain), "bold")]
    with pytest.raises(TypeError):
        AgentText(HOSTILE, made_by=None)
    with pytest.raises(TypeError):
        AgentText.styled(HOSTILE, "bold")  # Content's own constructors skip the policy


def _passing_a_plain_string() -> None:
    """Never run: mypy checks it. The helpers take ``AgentText`` (or ``Content``), so an
    agent's ``str`` cannot reach them by mistake; ``warn_unused_ignores`` fails the type
    check the day one of these lines stops being an error."""
    select_options([("raw agent text", "v")])  # type: ignore[list-item]
    tree_label("raw agent text")  # type: ignore[arg-type]
    option("raw agent text")  # type: ignore[arg-type]


def test_inert_makes_controls_visible_and_keeps_the_styles() -> None:
    content = Content.assemble(("ok ", "bold"), ("\x1b]0;t\x00\u009b", "italic"))
    shown = inert(content)
    assert shown.plain == "ok ␛]0;t␀\ufffd"
    assert shown.spans == content.spans
    clean = Content.styled("nothing to do", "bold")
    assert inert(clean) is clean


# -- the widgets -----------------------------------------------------------------------------


class _Widgets(App[None]):
    def compose(self) -> ComposeResult:
        yield LiteralStatic(HOSTILE, id="static")
        yield LiteralOptionList(id="options")
        yield LiteralSelect[str]([(HOSTILE, "a")], id="select", allow_blank=False)
        yield LiteralTree(HOSTILE, id="tree")
        yield LiteralTable[Any](id="table")
        yield LiteralInput(HOSTILE, id="input")


async def test_each_widget_shows_markup_as_text_and_escapes_as_symbols() -> None:
    app = _Widgets()
    async with app.run_test() as pilot:
        static = app.query_one("#static", LiteralStatic)
        static.update(HOSTILE)
        options = app.query_one("#options", LiteralOptionList)
        options.add_options([HOSTILE, option(PLAIN.literal(HOSTILE), id="one")])
        options.add_option(option(PLAIN.literal("again"), id="one"))  # a duplicate id
        tree = app.query_one("#tree", LiteralTree)
        tree.root.add_leaf(HOSTILE)
        table = app.query_one("#table", LiteralTable)
        table.add_column(HOSTILE)
        table.add_row(HOSTILE, key="row")
        table.add_row(Text(HOSTILE), key="row")  # a duplicate key
        await pilot.pause()
        current = app.query_one("#select", Select).query_one("SelectCurrent Static", Static)
        shown = [
            str(static.visual),
            *(str(o.prompt) for o in options.options[:2]),
            str(current.visual),
            str(tree.root.label),
            str(tree.root.children[0].label),
            str(table.get_row_at(0)[0]),
            str(table.get_row_at(1)[0]),
            str(table.ordered_columns[0].label),
            app.query_one("#input", LiteralInput).value,
        ]
        # The second option with id "one" is shown, without its id (no crash).
        assert options.option_count == 3 and options.options[2].id is None
        for text in shown:
            assert "[@click=app.quit]quit[/][/oops]" in text, text
            assert not any(c in text for c in "\x1b\x07\u009b\u202e"), text
        assert app.is_running


class _Toasting(SafeOutputApp):
    display_policy = PLAIN


async def test_a_toast_is_never_markup_and_never_an_escape() -> None:
    """``SiaApp.notify`` (from ``SafeOutputApp``), whatever ``markup`` a caller passes."""
    app = _Toasting()
    async with app.run_test(notifications=True) as pilot:
        app.notify(HOSTILE, title=HOSTILE, markup=True)
        await pilot.pause()
        toast = app.screen.query("Toast").last()
        shown = str(toast.render())
        assert shown.count("[@click=app.quit]quit[/][/oops]␛]0;pwned") == 2  # title, message
        assert not any(c in shown for c in "\x1b\x07\u009b\u202e")
        assert app.is_running


# -- every module of the TUI -----------------------------------------------------------------

#: Textual widgets that read a ``str`` as markup or draw control characters as they are.
RAW_WIDGETS = {"Static", "OptionList", "Select", "Tree", "DataTable", "Option", "Input"}
#: Widgets whose label is sia-tui's own text: a constant, or ``Content`` built on purpose.
LABELLED = {"Label", "Button", "Checkbox"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):  # Select[str](...)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _own_text(node: ast.expr | None) -> bool:
    """A constant, a CONSTANT's name, ``Content`` or a call that builds it: no agent ``str``."""
    if node is None or isinstance(node, ast.Constant | ast.Call):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.IfExp):
        return _own_text(node.body) and _own_text(node.orelse)
    if isinstance(node, ast.BinOp):  # Content + AgentText
        return isinstance(node.left, ast.Call) and isinstance(node.right, ast.Call | ast.Name)
    return False


def _violations(path: Path, root: Path = TUI) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(root.parent)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found += [
                f"{where}:{node.lineno} subclasses {_name(b)}"
                for b in node.bases
                if _name(b) in RAW_WIDGETS
            ]
        elif isinstance(node, ast.Call):
            name = _name(node.func)
            first = node.args[0] if node.args else None
            if name in RAW_WIDGETS:
                found.append(f"{where}:{node.lineno} builds a {name}")
            elif name in LABELLED and not _own_text(first):
                label = ast.unparse(first) if first else ""
                found.append(f"{where}:{node.lineno} labels a {name} with {label}")
            elif name == "from_markup" and not isinstance(first, ast.Constant):
                found.append(f"{where}:{node.lineno} parses markup from {ast.unparse(node)}")
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr in ("border_title", "border_subtitle")
                    and not _own_text(node.value)
                ):
                    found.append(f"{where}:{node.lineno} titles a border with a str")
    return found


def test_no_module_shows_text_but_through_the_literal_widgets() -> None:
    """Every Static, list, Select, Tree, table and Input of the TUI is one of
    ``widgets/literal.py``; markup is parsed from sia-tui's own constants only."""
    modules = [p for p in sorted(TUI.rglob("*.py")) if p not in LITERAL]
    assert len(modules) > 40
    found = [v for path in modules for v in _violations(path)]
    assert not found, "\n".join(found)


def test_the_scan_finds_what_it_forbids(tmp_path: Path) -> None:
    """The scan itself: a hand-built widget, a label, a markup parse and a border title."""
    sample = tmp_path / "screens" / "x.py"
    sample.parent.mkdir()
    sample.write_text(
        "class A(Static): ...\n"
        "Select[str]([(name, name)])\n"
        "Button(skill.name)\n"
        "Content.from_markup(f'[b]{title}[/b]')\n"
        "pane.border_title = f'Pretty JSON: {kind}'\n",
        encoding="utf-8",
    )
    assert len(_violations(sample, root=tmp_path)) == 5
