"""Start-up styles the first screen once: the theme is chosen without queueing a second parse
of the CSS, and the footer is built once, each key styled once.

Each short cut answers what it replaces (hypothesis differential tests): the app chosen its
theme quietly looks and maps colours as one whose ``theme`` was assigned, and the footer
skips a rebuild only when Textual's footer would show the same keys.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import Widget
from textual.widgets import Footer, Static

from sia_tui.core.run.read_model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.themes import choose_first_theme
from sia_tui.tui.widgets.key_footer import KeyFooter
from tests.support.agents import StartAgent
from tests.support.tui import settle

AGENT_NAME = "sia-tui reference agent"


async def test_the_first_screen_is_styled_once(
    reference_agent: StartAgent, user_dirs: UserDirs, monkeypatch: Any
) -> None:
    """Until the card is on screen: the CSS is parsed once, with the chosen theme's colours
    (the restyle Textual asks for with the first mode screen can change nothing and is
    skipped; a second parse of every rule was some 10 ms); each widget is styled once as it
    is mounted (Textual styled them all again when the screen became active), the skill
    list again for its focused look; the footer is composed once (a focused skill list's
    ``enter`` shows the same words as the screen's); no footer key is styled a second time
    for its compact look."""
    refreshes: list[str] = []
    reparses: list[str] = []
    composes: list[int] = []
    styled: list[DOMNode] = []
    real_refresh, real_compose = SiaApp.refresh_css, KeyFooter.compose
    real_reparse, real_apply = Stylesheet.reparse, Stylesheet.apply

    def refresh_css(app: SiaApp, animate: bool = True) -> None:
        refreshes.append("refresh")
        real_refresh(app, animate)

    def reparse(stylesheet: Stylesheet) -> None:
        reparses.append("reparse")  # every rule parsed again (Textual's restyle)
        real_reparse(stylesheet)

    def apply(stylesheet: Stylesheet, node: DOMNode, *args: Any, **kwargs: Any) -> None:
        if isinstance(node, Widget):
            styled.append(node)
        real_apply(stylesheet, node, *args, **kwargs)

    def compose(footer: KeyFooter) -> ComposeResult:
        composes.append(1)
        yield from real_compose(footer)

    monkeypatch.setattr(SiaApp, "refresh_css", refresh_css)
    monkeypatch.setattr(Stylesheet, "reparse", reparse)
    monkeypatch.setattr(Stylesheet, "apply", apply)
    monkeypatch.setattr(KeyFooter, "compose", compose)
    app = SiaApp(Target(reference_agent().url), dirs=user_dirs)
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert AGENT_NAME in str(app.screen.query_one("#card-body", Static).visual)
        assert refreshes == ["refresh"]  # asked for by Textual with the first mode screen
        assert reparses == []
        twice = [w for w in app.screen.walk_children(with_self=True) if styled.count(w) > 1]
        assert twice == [app.screen.query_one("#skills")]
        assert composes == [1]
        keys = list(app.screen.query_one(KeyFooter).query("FooterKey"))
        assert keys and all(key.has_class("-compact") for key in keys)


class _RestyledApp(SiaApp):
    """Textual's way: each restyle asked for parses every rule again and styles every widget
    again (the first mode screen asks for one), as does each resume of a screen."""

    def refresh_css(self, animate: bool = True) -> None:
        App.refresh_css(self, animate)


@pytest.mark.frames
@pytest.mark.parametrize("theme", ["sia-dark", "sia-light", "ansi-dark"])
async def test_the_first_screen_looks_as_when_textual_restyles_it(
    theme: str, reference_agent: StartAgent, user_dirs: UserDirs, monkeypatch: Any
) -> None:
    """Styled once, the card and the skill list show what Textual's whole restyle shows,
    every colour, as a terminal draws them frame by frame, whichever theme the user chose
    last (the default, a light one, one that maps ANSI colours its own way). A widget drawn
    before the app itself was styled kept the wrong text colour (dark on dark)."""
    user_dirs.save_setting("theme", theme)
    url = reference_agent().url
    pictures = []
    for app_class in (SiaApp, _RestyledApp):
        if app_class is _RestyledApp:
            monkeypatch.setattr(RunScreen, "RESTYLE_FIRST_RESUME", True)
        app = app_class(Target(url), dirs=user_dirs)
        app.animation_level = "none"  # no blinking cursor
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            assert app.theme == theme
            pictures.append(app.export_screenshot())
    assert pictures[0] == pictures[1]


# -- the theme: chosen quietly == assigned --------------------------------------------------

THEMES = st.builds(
    lambda dark, ansi, primary: Theme(
        name=f"t-{int(dark)}{int(ansi)}-{primary[1:]}", primary=primary, dark=dark, ansi=ansi
    ),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["#004578", "#A3BE8C", "#F25F5C"]),
)
#: A line holding ANSI colours, a true colour and no colour: what the ANSI filters change.
LINE = [
    Segment("a", Style(color="red", bgcolor="blue")),
    Segment("b", Style(color="#123456")),
    Segment("c"),
]


def _looks(app: App[Any]) -> tuple[object, ...]:
    """Everything the chosen theme decides before the app runs: its name, the app's classes,
    the CSS variables and what the line filters make of ANSI colours."""
    filtered = [(type(f).__name__, f.apply(LINE, Color(0, 0, 0))) for f in app.get_line_filters()]
    return (app.theme, sorted(app.classes), app.get_css_variables(), filtered)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    themes=st.lists(THEMES, min_size=1, max_size=3),
    pick=st.integers(0, 2),
    ansi_color=st.sampled_from([None, True, False]),
)
def test_a_theme_chosen_quietly_looks_as_one_assigned(
    themes: list[Theme], pick: int, ansi_color: bool | None
) -> None:
    name = themes[pick % len(themes)].name

    def built() -> App[Any]:
        app: App[Any] = App(ansi_color=ansi_color)
        for theme in themes:
            app.register_theme(theme)
        return app

    assigned, chosen = built(), built()
    assigned.theme = name
    choose_first_theme(chosen, name)
    assert _looks(chosen) == _looks(assigned)


# -- the footer: a rebuild skipped only when Textual's would show the same keys -------------

GROUPS = [None, Binding.Group("Move"), Binding.Group("Jump", compact=True)]
BINDINGS = st.lists(
    st.builds(
        lambda key, action, description, show, tooltip, group: Binding(
            key, action, description, show=show, tooltip=tooltip, group=group
        ),
        st.sampled_from(["a", "b", "enter", "f1"]),
        st.sampled_from(["go", "open", "quit_dialog"]),
        st.sampled_from(["Go", "Open", ""]),
        st.sampled_from([True, True, False]),
        st.sampled_from(["", "Why"]),
        st.sampled_from(GROUPS),
    ),
    min_size=1,
    max_size=5,
)


def _screen_with(bindings: list[Binding], disabled: frozenset[str]) -> Screen[None]:
    """A screen with these keys (the actions in ``disabled`` greyed), Textual's footer and
    a ``KeyFooter`` (asked what it would show)."""

    class Keys(Screen[None]):
        BINDINGS: ClassVar[list[BindingType]] = list(bindings)

        def compose(self) -> ComposeResult:
            yield Footer(compact=True, id="textual")
            yield KeyFooter(compact=True)

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            return None if action in disabled else True

    return Keys()


def _shown(footer: Footer) -> list[tuple[object, ...]]:
    """What Textual's footer shows: each child's type, classes, words and tooltip."""
    return [
        (
            type(w).__name__,
            sorted(w.classes),
            getattr(w, "key", None),
            getattr(w, "key_display", None),
            getattr(w, "description", None),
            str(w.tooltip),
            str(w.render()) if type(w).__name__ == "FooterLabel" else None,
        )
        for w in footer.query("*")
    ]


class _Probe(App[None]):
    """Shows each pair of key sets on Textual's footer and asks ``KeyFooter`` about them."""

    def __init__(self, pairs: list[tuple[Any, Any]]) -> None:
        super().__init__()
        self.pairs = pairs
        self.answers: list[tuple[bool, bool]] = []

    async def answer(self, pilot: Any) -> None:
        for first, second in self.pairs:
            seen = []
            for bindings, disabled in (first, second):
                await self.push_screen(_screen_with(bindings, disabled))
                await pilot.pause()
                footer = self.screen.query_one("#textual", Footer)
                # Textual's footer rebuilds after a refresh once the bindings are known; on a
                # loaded machine one pause may come before that. Build it now from the
                # screen's bindings, as it would (``shown_keys`` reads them live), in its own
                # context (its compose binds data from its parent).
                rebuilt = asyncio.Event()

                async def rebuild(footer: Footer = footer, rebuilt: Any = rebuilt) -> None:
                    await footer.recompose()
                    rebuilt.set()

                footer.call_later(rebuild)
                await rebuilt.wait()
                seen.append((_shown(footer), self.screen.query_one(KeyFooter).shown_keys()))
                await self.pop_screen()
            (shown_a, keys_a), (shown_b, keys_b) = seen
            self.answers.append((keys_a == keys_b, shown_a == shown_b))


KEY_SETS = st.tuples(BINDINGS, st.frozensets(st.sampled_from(["go", "open"])))


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """Two key sets: unrelated, or the second the first with one thing changed (a focused
    widget's own binding for a key changes the action and keeps the words)."""
    first = draw(KEY_SETS)
    bindings, disabled = first
    change = draw(st.sampled_from(["unrelated", "action", "words", "tooltip", "show", "group"]))
    if change == "unrelated" or not bindings:
        return first, draw(KEY_SETS)
    # A shown binding (the first shown of its action, so Textual's footer shows it).
    at = draw(st.integers(0, len(bindings) - 1))
    old = replace(bindings[at], show=True)
    bindings = [*bindings[:at], old, *bindings[at + 1 :]]
    bindings = [b for i, b in enumerate(bindings) if i >= at or b.action != old.action]
    at = bindings.index(old)
    first = (bindings, disabled)

    def other(pool: list[Any], now: Any) -> Any:
        return draw(st.sampled_from([value for value in pool if value != now]))

    new = {
        "action": lambda: replace(old, action=other(["go", "open", "select"], old.action)),
        "words": lambda: replace(old, description=other(["Go", "Open", ""], old.description)),
        "tooltip": lambda: replace(old, tooltip=other(["", "Why"], old.tooltip)),
        "show": lambda: replace(old, show=not old.show),
        "group": lambda: replace(old, group=other(GROUPS, old.group)),
    }[change]()
    return first, ([*bindings[:at], new, *bindings[at + 1 :]], disabled)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(_pairs(), min_size=15, max_size=15))
def test_the_footer_skips_a_rebuild_only_when_textual_would_show_the_same(
    pairs: list[tuple[Any, Any]],
) -> None:
    """Over pairs of key sets (sharing keys, actions, words and groups, some greyed):
    whenever ``KeyFooter`` calls two sets the same, Textual's own footer shows them the same."""
    app = _Probe(pairs)

    async def run() -> None:
        async with app.run_test() as pilot:
            await app.answer(pilot)

    asyncio.run(run())
    assert len(app.answers) == len(pairs)
    for same_keys, same_shown in app.answers:
        assert same_shown or not same_keys
