"""Keyboard and focus: dialogs give the focus back, every control is one key away, Enter
and ctrl+j do what the screen says."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Checkbox, Select

from sia_tui.tui.screens import invoke_check
from sia_tui.tui.screens.console import ConsoleScreen
from sia_tui.tui.screens.help import HelpScreen
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.key_footer import KeyFooter
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SMALL,
    enter_arguments,
    press,
    record_notices,
    settle,
    wait_until,
)


async def test_keys_after_a_dialog_go_where_the_focus_was_not_into_the_message(
    make_app: Any,
) -> None:
    """On the Console, Esc leaves the message editor; F1 (or the palette) then Esc closes the
    dialog, and `2` shows the Steps screen: nothing is typed into the message. Coming back
    to the Console (0) puts the cursor in the message editor again. (One app: the palette's
    round starts where F1's ended, by coming back to the Console.)"""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "0")
        screen = app.screen
        assert isinstance(screen, ConsoleScreen)
        editor = screen.query_one(ArgumentEditor)
        for dialog in ("f1", "ctrl+p"):
            assert app.screen is screen and editor.has_focus  # the user came to type
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
            await press(pilot, "0")


async def test_f1_titles_name_the_screen_and_pane_as_a_person_does(make_app: Any) -> None:
    """F1's heading reads "Overview: skills list", not a widget class ("OptionList"); on
    the Console, "Console: message editor"."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        for keys, title in (((), "Overview: skills list"), (("0",), "Console: message editor")):
            await press(pilot, *keys, "f1")
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            assert help_screen.markdown.splitlines()[0] == f"# {title}"
            await press(pilot, "escape")


def _footer_keys(app: Any) -> list[str]:
    # By their CSS type names: FooterKey and SelectCurrent live in private Textual modules.
    return [
        str(getattr(key, "description", ""))
        for key in app.screen.query_one(KeyFooter).query("FooterKey")
    ]


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


async def test_the_response_mode_picker_is_one_key_away_and_shows_its_focus(
    make_app: Any,
) -> None:
    """On Invoke, f8 from the editor focuses the response-mode picker and opens it; down,
    Enter chooses `stream`. The focused picker is drawn in the cursor's colours (a compact
    picker showed no focus at all)."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r", "5")
        screen = app.screen
        picker = screen.query_one("#mode", Select)
        unfocused = picker.query_one("SelectCurrent").styles.background
        assert screen.query_one(ArgumentEditor).has_focus
        await press(pilot, "f8")
        assert picker.expanded
        await press(pilot, "down", "enter")
        assert picker.value == "stream" and picker.has_focus and not picker.expanded
        assert picker.query_one("SelectCurrent").styles.background != unfocused


async def test_enter_on_the_send_anyway_box_never_arms_it(make_app: Any) -> None:
    """Invalid arguments (an x typed before the example), then Tab from the picker lands on
    "Send anyway": Enter there does nothing (it would turn the next ctrl+j into a deliberate
    negative test); Space (or ctrl+t) toggles it."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r", "5", "x", "escape")
        screen = app.screen
        assert isinstance(screen, InvokeScreen)
        assert screen.query_one("#mode", Select).has_focus
        await press(pilot, "tab")
        box = screen.query_one("#send-anyway", Checkbox)
        assert box.has_focus
        await press(pilot, "enter")
        assert not box.value and not screen.send_anyway
        await wait_until(pilot, lambda: not screen.valid)  # the x is checked (a debounce)
        await press(pilot, "space")
        assert box.value and screen.send_anyway


async def test_the_palette_chooses_the_response_mode(make_app: Any) -> None:
    """`response mode: stream` in the palette sets the Invoke picker to stream (switching to
    Invoke); `response mode: poll` says the document declares only sync and stream."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r")
        told = record_notices(app)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["response mode: stream"].callback()
        await press(pilot)
        assert isinstance(app.screen, InvokeScreen)
        assert app.screen.query_one("#mode", Select).value == "stream"
        commands["response mode: poll"].callback()
        await press(pilot)
        assert app.screen.query_one("#mode", Select).value == "stream"
        assert told[-1] == "No poll mode: the document declares sync, stream."


async def test_the_palette_says_in_one_sentence_why_no_mode_is_chosen_before_the_steps(
    make_app: Any,
) -> None:
    """Before steps 1-6, `response mode: stream` in the palette says there is no stream mode
    yet and how to get a document, in whole sentences (it read "no document yet: No input
    schema yet: ... (2, then r).." before)."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        told = record_notices(app)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["response mode: stream"].callback()
        await press(pilot)
        assert told == ["No stream mode yet. No input schema yet: run steps 1-6 first (2, then r)."]


async def test_ctrl_j_while_the_arguments_are_checked_is_queued_then_sent(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ctrl+j pressed the moment Invoke opens says "Queued: the arguments are being
    checked..." and the invocation goes out once they are valid (it used to be refused
    with "try again")."""
    # A slow first check (a big schema, a busy machine): ctrl+j comes before it ends.
    monkeypatch.setattr(invoke_check, "VALIDATE_DELAY", 1.0)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r")
        told = record_notices(app)
        await pilot.press("5", "ctrl+j")
        assert any(notice.startswith("Queued: ") for notice in told), told
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        run = app.current_run
        assert run is not None and run.arguments is not None


async def test_ctrl_j_right_after_typing_sends_the_text_on_screen(make_app: Any) -> None:
    """Arguments changed and sent at once go out as shown (threshold 90), never as the
    previous text's check left them (threshold 80)."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r")
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        screen.query_one(ArgumentEditor).load_text(APPENDIX_B_TEXT.replace("80", "90"))
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        run = app.current_run
        assert run is not None and run.arguments["condition"]["threshold"] == 90
