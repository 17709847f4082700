"""Pilot tests of a task that asks a question: Results shows the agent's question literally
with a reply box; Enter sends the reply on the same task and the run completes."""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox, Input

from sia_tui.core.run.read_model import Target
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.tui.app import SiaApp
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.tui import (
    SIZE,
    invoke_appendix_b,
    record_notices,
    send_link_check,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)

QUESTION = "Which site should the report name?"


def asking_app(reference_agent: StartAgent, user_dirs: UserDirs, **config: Any) -> SiaApp:
    agent = reference_agent(ask="input", **config)
    return snapshot_app(Target(agent.url), dirs=user_dirs)


async def asked(pilot: Any) -> SiaApp:
    """Steps 1-6, the Appendix B invocation, and Results showing the agent's question."""
    await settle(pilot)
    await invoke_appendix_b(pilot)
    app: SiaApp = pilot.app
    return app


async def reply(pilot: Any, text: str, *, as_json: bool = False) -> None:
    if as_json:
        pilot.app.screen.query_one("#reply-json", Checkbox).value = True
    field = pilot.app.screen.query_one("#reply-input", Input)
    field.focus()
    field.value = text
    await pilot.press("enter")
    await settle(pilot)


async def test_the_question_and_a_reply_box_appear_and_enter_completes_the_task(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """The agent asks (INPUT_REQUIRED): the question and a reply box appear, the reply input
    has the focus, so what the user types next is the reply, and Enter sends it on the same
    task: the run completes and the reply box goes away, and the focus with it: the result
    has it (the keys scroll it) and the footer no longer offers "Send reply"."""
    app = asking_app(reference_agent, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await asked(pilot)
        run = app.current_run
        assert run is not None and run.verdict.waiting_for_reply
        assert QUESTION in static_text(app, "#turns")
        assert app.screen.query_one("#reply-row").display
        assert app.focused is app.screen.query_one("#reply-input", Input)
        await pilot.press(*"north hall", "enter")
        await settle(pilot)
        run = app.current_run
        assert run is not None
        assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
        turns = static_text(app, "#turns")
        assert "north hall" in turns and "unvalidated" in turns
        assert not app.screen.query_one("#reply-row").display  # nothing waits any more
        assert app.focused is app.screen.query_one("#result-body")
        shown = [b.binding.description for b in app.screen.active_bindings.values()]
        assert "Send reply" not in shown


async def test_run_all_says_where_to_answer_and_a_json_reply_that_does_not_parse_is_not_sent(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """`r` on Steps stops at the question: the notice names Results and Enter, and `r`
    again says the task waits for a reply rather than that the run is complete. Back on
    Results, a JSON reply that does not parse is not sent; one that does completes the task.
    (One app: both need the agent's question first.)"""
    app = asking_app(reference_agent, user_dirs)
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await asked(pilot)
        await pilot.press("escape", "2", "r")  # Esc: out of the reply box that has the focus
        await settle(pilot)
        assert app.current_run is not None and app.current_run.verdict.waiting_for_reply
        assert any("answer the agent's question on Results (6)" in m for m in told), told
        assert not any("The run is complete" in m for m in told), told
        await pilot.press("6")
        await settle(pilot)
        await reply(pilot, "{not json", as_json=True)
        run = app.current_run
        assert run is not None and run.verdict.waiting_for_reply and not run.turns[0].answered
        field = app.screen.query_one("#reply-input", Input)
        field.value = '{"site": "north hall"}'
        await pilot.press("ctrl+j")  # ctrl+j sends too, as it invokes on the Invoke screen
        await settle(pilot)
        assert app.current_run is not None
        assert app.current_run.turns[0].reply == {"site": "north hall"}
        assert app.current_run.verdict.outcome is RunOutcome.PASSED


async def test_the_question_is_shown_literally(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """The markup fault's question carries Rich markup and terminal escapes: drawn as
    written, never run, and no control character reaches the screen."""
    app = asking_app(reference_agent, user_dirs, fault="markup")
    async with app.run_test(size=SIZE) as pilot:
        await asked(pilot)
        await wait_until(pilot, lambda: bool(static_text(app, "#turns")))
        shown = static_text(app, "#turns")
        assert QUESTION in shown and "[bold red]pwned[/bold red] [/foo]" in shown
        assert "\x1b" not in shown and "\x07" not in shown


def test_snapshot_results_while_the_task_asks(
    snap_compare: Any, reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """Results after invoking an agent that asks: the status line says the task is
    TASK_STATE_INPUT_REQUIRED; below it a yellow-bordered box titled "The agent asks" lists
    "1. TASK_STATE_INPUT_REQUIRED  Which site should the report name? Reply with any text.",
    the note "reply below: unvalidated: interface 1.0 defines no schema for follow-up data
    (RULES INV11)", and an input reading "your reply; Enter or ctrl+j sends" beside a "JSON data"
    checkbox. The result pane says there is no result yet: the task waits for input."""

    async def run_before(pilot: Any) -> None:
        await asked(pilot)

    app = asking_app(reference_agent, user_dirs)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_x_cancels_a_task_that_waits_for_input(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """A task waiting for input has not ended: x sends CancelTask, Results says CANCELLED
    (as asked, not failed) and the reply box goes away."""
    agent = reference_agent(ask="input", step_delay=0.01)
    target = Target(agent.url, skill_id="check_link_capacity", mode="stream")
    app = snapshot_app(target, dirs=user_dirs)
    notices = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await send_link_check(pilot)
        await wait_until(
            pilot, lambda: app.current_run is not None and app.current_run.verdict.waiting_for_reply
        )
        await settle(pilot)
        assert app.screen.query_one("#reply-row").display
        await pilot.press("escape", "x")  # Esc: out of the reply box that has the focus
        run = app.current_run
        assert run is not None
        await wait_until(pilot, lambda: run.steps[8].status.value == "cancelled")
        await settle(pilot)
        status = static_text(app, "#status")
        assert not app.screen.query_one("#reply-row").display
    assert "⊗ CANCELLED: the task was cancelled as asked" in status
    assert not any("ended TASK_STATE_INPUT_REQUIRED" in n for n in notices), notices
    assert run.failed_step is None
