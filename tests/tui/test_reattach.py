"""History's `a`: reattach to the task a saved run left running, read-only; a finished
run's task says there is nothing to follow."""

from __future__ import annotations

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Step, Target
from sia_tui.core.session import history
from sia_tui.tui.screens.history import HistoryMode
from sia_tui.tui.screens.reattach import ReattachScreen
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.tui import SIZE, record_notices, settle, snapshot_app, static_text, wait_until


async def autosaved(url: str, stop_at: Step) -> None:
    """The long-running skill sent in stream mode, autosaved at ``stop_at``."""
    procedure = Procedure(
        Target(url, skill_id="check_link_capacity", mode="stream"), ClientOptions()
    )
    procedure.use_example()
    try:
        await procedure.run_until(stop_at)
        history.autosave(procedure.run, ClientOptions())
    finally:
        await procedure.aclose()


async def test_a_reattaches_to_a_running_task_and_shows_its_events(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    # 1 s a step (3 s in all): the task must still be running once the app has started and
    # History is open, even on a loaded CI machine (at 0.2 s it sometimes had ended).
    agent = reference_agent(step_delay=1.0)
    await autosaved(agent.url, Step.DELEGATION)
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        assert isinstance(app.screen, HistoryMode)
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, ReattachScreen))
        screen = app.screen
        assert isinstance(screen, ReattachScreen)
        await wait_until(pilot, lambda: screen.followed is not None, tries=1000)
        shown = static_text(app, "#reattach-events")
        assert shown.splitlines()[0].startswith("⟳ task")  # the snapshot comes first
        assert "the stream ended: TASK_STATE_COMPLETED" in shown
        assert app.current_run is not None and not app.read_only  # the live run is untouched
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryMode))


async def test_a_finished_run_has_nothing_to_reattach_to(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    agent = reference_agent()
    await autosaved(agent.url, Step.PRESENTATION)
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, HistoryMode)
        assert any("Nothing to reattach to" in m and "COMPLETED" in m for m in told), told
