"""Focus after a dialog closes: it stays where the user left it, on every screen."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets._footer import FooterKey

from sia_tui.tui.screens.console import ConsoleScreen
from sia_tui.tui.screens.help import HelpScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.key_footer import KeyFooter
from tests.support.tui import SMALL, press, settle


@pytest.mark.parametrize("dialog", ["f1", "ctrl+p"])
async def test_keys_after_a_dialog_go_where_the_focus_was_not_into_the_message(
    make_app: Any, dialog: str
) -> None:
    """On the Console, Esc leaves the message editor; F1 (or the palette) then Esc closes the
    dialog, and `2` shows the Steps screen: nothing is typed into the message."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "0")
        screen = app.screen
        assert isinstance(screen, ConsoleScreen)
        editor = screen.query_one(ArgumentEditor)
        assert editor.has_focus  # the user came to type a message
        await press(pilot, "escape")
        left_on = app.focused
        assert left_on is not None and left_on is not editor
        await press(pilot, dialog)
        assert app.screen is not screen  # the dialog is open
        await press(pilot, "escape")
        assert app.screen is screen and app.focused is left_on
        await press(pilot, "2")
        assert isinstance(app.screen, StepsScreen)
        assert editor.text == ""


async def test_switching_back_to_the_console_focuses_the_message_again(make_app: Any) -> None:
    """Arriving on the Console (0) still puts the cursor in the message editor."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "0", "escape")
        screen = app.screen
        assert isinstance(screen, ConsoleScreen)
        assert not screen.query_one(ArgumentEditor).has_focus
        await press(pilot, "2", "0")
        assert app.screen is screen and screen.query_one(ArgumentEditor).has_focus
        await settle(pilot)


@pytest.mark.parametrize(
    ("keys", "title"),
    [((), "Overview: skills list"), (("0",), "Console: message editor")],
)
async def test_f1_titles_name_the_screen_and_pane_as_a_person_does(
    make_app: Any, keys: tuple[str, ...], title: str
) -> None:
    """F1's heading reads "Overview: skills list", not a widget class ("OptionList")."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, *keys, "f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert help_screen.markdown.splitlines()[0] == f"# {title}"


def _footer_keys(app: Any) -> list[str]:
    return [key.description for key in app.screen.query_one(KeyFooter).query(FooterKey)]


async def test_enter_in_the_card_opens_the_highlighted_skill(make_app: Any) -> None:
    """On the Overview the footer shows `⏎ Open skill`, with the skill list focused and with
    the card focused; Enter in the card runs the steps on the skill highlighted in the list
    (it used to do nothing and say nothing)."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert "Open skill" in _footer_keys(app)
        app.screen.query_one("#card").focus()
        await press(pilot)
        assert "Open skill" in _footer_keys(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, StepsScreen)
        run = app.current_run
        assert run is not None and run.skill_id == "evaluate_resource_condition"
