"""The agent's tasks (ListTasks) from the History screen: listed newest first, one opened
read-only on Results with the same rendering as a run's task, Esc back to the live run."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from sia_tui.core.a2a.task_views import Task
from sia_tui.core.engine.task_list import TaskListing
from sia_tui.core.run.read_model import Target
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.tasks import TasksScreen
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.frames import draw_full_frame
from tests.support.tui import (
    SIZE,
    invoke_appendix_b,
    send_on_console,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)

HOSTILE = "[bold red]pwned[/bold red] \x1b[2J"


async def test_a_task_that_asks_for_input_shows_its_whole_state(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """A plain message on the Console leaves a task waiting for input; in the agent's tasks
    (7, t) its state reads TASK_STATE_INPUT_REQUIRED whole (its last letter was cut)."""
    app = snapshot_app(Target(reference_agent().url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("0")
        await settle(pilot)
        await send_on_console(pilot, "hello agent")
        assert app.console_state.reply is not None
        await pilot.press("escape", "7", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, TasksScreen))
        await settle(pilot)
        assert "TASK_STATE_INPUT_REQUIRED " in Text.from_ansi(draw_full_frame(app)).plain


async def test_list_tasks_and_open_one_read_only(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    agent = reference_agent()
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        live = app.current_run
        assert live is not None and live.task is not None
        await pilot.press("7", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, TasksScreen))
        screen = app.screen
        assert isinstance(screen, TasksScreen)
        await wait_until(pilot, lambda: screen.listing is not None)
        assert screen.listing is not None and screen.listing.error is None
        assert [t.id for t in screen.listing.tasks][0] == live.task.id
        assert screen.query_one(DataTable).row_count == 2  # describe_skill and the skill
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await settle(pilot)
        opened = app.current_run
        assert app.read_only and opened is not live
        assert opened is not None and opened.task is not None
        assert opened.task.id == live.task.id and opened.verdict.outcome.value == "incomplete"
        assert "TASK_STATE_COMPLETED" in static_text(app, "#status")
        await pilot.press("escape")
        await settle(pilot)
        assert app.current_run is live and not app.read_only


async def test_agent_strings_in_the_list_stay_literal(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """A task id, state and error text with markup and escapes are shown as text."""
    agent = reference_agent()
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "n")
        await settle(pilot)
        engine: Any = app.engine
        task = Task(HOSTILE, HOSTILE, HOSTILE, None, (), {})

        async def hostile_page(page_token: str | None = None) -> TaskListing:
            return TaskListing(None, tasks=[task], total_size=1)

        engine.list_tasks = hostile_page
        await pilot.press("7", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, TasksScreen))
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        cells = [str(cell) for cell in table.get_row_at(0)]
        assert "[bold red]pwned[/bold red]" in cells[0] and "\x1b" not in cells[0]


async def test_a_0_3_agent_says_it_has_no_list(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    agent = reference_agent(fault="v03")
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "n")
        await settle(pilot)
        await pilot.press("7", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, TasksScreen))
        screen = app.screen
        assert isinstance(screen, TasksScreen)
        await wait_until(pilot, lambda: screen.listing is not None)
        assert "does not exist in A2A 0.3" in static_text(app, "#tasks-note")


def test_the_agents_tasks_dialog(
    snap_compare: Any, reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """Over the History screen, a dialog titled 'The agent's tasks (ListTasks)': '2 of 2
    task(s), newest first. Enter opens one read-only.', then a table (task, state,
    artifacts, context) with the skill's task first (TASK_STATE_COMPLETED, 2 artifacts) and
    the describe_skill task under it (1 artifact); the first row highlighted."""
    app = snapshot_app(Target(reference_agent().url), dirs=user_dirs)

    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        await pilot.press("7", "t")
        await wait_until(pilot, lambda: isinstance(app.screen, TasksScreen))
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
