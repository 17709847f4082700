"""Toasts as a person sees them: one per kind (a newer one replaces the older), none left
saying what is no longer true. None over a table's key column at 80x24: checked in
test_small_terminals.py, on its walk over every screen after an invocation."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App

from sia_tui.core.run import Target
from sia_tui.core.session import history
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from tests.support.frames import draw_full_frame
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    record_notices,
    settle,
    snapshot_app,
    wait_until,
    workers_done,
)


def toasts(app: App[Any]) -> list[str]:
    """The text of every toast on screen (title and message), top to bottom."""
    shown = sorted(app.screen.query("Toast"), key=lambda t: t.region.y)
    return [str(toast.render()) for toast in shown]


async def shown(pilot: Any) -> None:
    """Let the toasts reach the screen (without clearing them, as ``settle`` does)."""
    await workers_done(pilot.app)
    for _ in range(3):
        await pilot.pause()


async def test_waiting_for_arguments_is_said_once_and_sending_n_of_n_goes_once_sent(
    make_app: Any,
) -> None:
    """Steps 1-6 done, n pressed three times: one "Waiting for arguments" toast, not three.
    Then three invocations: when the third has its verdict on Results, no toast still says
    "Sending invocation …", and none says the run waits for arguments. (One app: the
    invocations follow the n presses as a person's session goes on.)"""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        for _ in range(3):
            await pilot.press("n")
            await shown(pilot)
        waiting = [t for t in toasts(app) if "Waiting for arguments" in t]
        assert len(waiting) == 1, toasts(app)
        for _ in range(3):
            await enter_arguments(pilot, APPENDIX_B_TEXT)
            await pilot.press("ctrl+j")
            await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
            await wait_until(
                pilot, lambda: app.current_run is not None and app.current_run.verdict.finished
            )
            await shown(pilot)
        run = app.current_run
        assert run is not None and len(run.invocations) == 3
        assert not [t for t in toasts(app) if "Sending invocation" in t], toasts(app)
        assert not [t for t in toasts(app) if "Waiting for arguments" in t], toasts(app)


def on_screen(app: App[Any]) -> str:
    """What the terminal shows: the top screen over the screens it lets show through."""
    return Text.from_ansi(draw_full_frame(app)).plain


async def test_no_toast_that_is_gone_shows_behind_the_step_8_question(make_app: Any) -> None:
    """A skill that may act: 5, then ctrl+j once the example is checked, and Results waits
    behind the question "Send this invocation?". The editor's "Example arguments" toast
    came along; a click on it takes it off the screen, also from Results, which shows
    through the dialog's backdrop.
    Then "no", 5 and ctrl+j again: while the question is asked, no toast says "Sending
    invocation 2 of 2" (it was withdrawn once the run stopped before step 8, before that
    toast had reached the screen). One app: the second invocation follows the first as a
    person's session goes on."""
    app = make_app()
    app.NOTIFICATION_TIMEOUT = 60  # the toast is dismissed, not timed out, on a slow machine
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.choose_skill("apply_interface_shutdown")
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("5")
        invoke = app.screen
        assert isinstance(invoke, InvokeScreen)
        await wait_until(pilot, lambda: invoke.last_result is not None)  # checked: no "Queued"
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await shown(pilot)
        assert "Example arguments" in on_screen(app)
        await pilot.click("Toast")
        await shown(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Example arguments" not in on_screen(app)  # nor behind the dialog
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await shown(pilot)
        frame = on_screen(app)
        assert "Send this invocation?" in frame
        assert "Sending invocation" not in frame


async def test_enter_on_another_skill_says_it_is_selected_not_to_press_r(make_app: Any) -> None:
    """On Overview, down to "Apply interface shutdown" and Enter: the Steps screen runs
    steps 1-6 on that skill, and the toast says it was selected, not "Press r to run the
    steps" (they are running already)."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        told = record_notices(app)
        await pilot.press("down", "down", "down", "enter")
        await settle(pilot)
        run = app.current_run
        assert isinstance(app.screen, StepsScreen)
        assert run is not None and run.skill_id == "apply_interface_shutdown"
        assert run.verdict.waiting_for_arguments  # steps 1-6 ran
        assert "Skill selected: apply_interface_shutdown." in told
        assert not [notice for notice in told if "Press r" in notice], told


async def test_back_to_the_live_run_takes_down_what_was_said_of_the_recorded_one(
    make_app: Any,
) -> None:
    """History, Enter on the run just autosaved: a toast says it is a recorded run and that
    Esc returns to the live run; n there says the session is read-only. Esc: the live run is
    back, the toast says so, and none still says "read-only" or "Esc returns"."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await wait_until(pilot, lambda: len(history.list_history()) == 1)
        await settle(pilot)
        await pilot.press("7", "enter")
        await wait_until(pilot, lambda: app.read_only)
        await pilot.press("2", "n")
        await shown(pilot)
        said = " ".join(toasts(app))
        assert "Esc returns to the live run" in said and "read-only session" in said
        await pilot.press("escape")
        await shown(pilot)
        assert not app.read_only
        said = " ".join(toasts(app))
        assert "Back to the live run." in said
        assert "read-only" not in said and "Esc returns" not in said, toasts(app)


async def test_p_and_s_on_steps_say_what_they_switched(make_app: Any) -> None:
    """Step 4 has no body and no secret on screen, so p and s change nothing a person can
    see there: each says what it switched (raw bodies, secrets in clear), and again when
    switched back."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StepsScreen)
        screen.select_step(4)
        told = record_notices(app)
        await pilot.press("p", "s", "p", "s")
        await shown(pilot)
        assert told == [
            "Bodies raw, as received; p pretty-prints them again.",
            "Secrets in clear on Steps only (credentials, marked values); s masks them.",
            "Bodies pretty-printed; p shows them raw, as received.",
            "Secrets masked again.",
        ]
        assert [t.split("\n")[0] for t in toasts(app)] == ["Bodies", "Secrets"]  # one each


async def test_enter_with_no_card_says_why_there_is_no_skill_to_open(
    user_dirs: UserDirs,
) -> None:
    """Nothing answers at the card URL: the Overview's skill list is empty and its footer
    still offers ⏎ Open skill. Enter says there is no card, so no skill, and how to retry
    (it did nothing at all)."""
    app = snapshot_app(Target("http://127.0.0.1:9"), dirs=user_dirs)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        run = app.current_run
        assert run is not None and run.card is None
        told = record_notices(app)
        await pilot.press("enter")
        await shown(pilot)
        assert told == [
            "No Agent Card yet, so no skill to open: press 2 then R to retry step 1, or c to "
            "connect."
        ]
