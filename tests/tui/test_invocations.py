"""Pilot tests of a run of several invocations: what is sent is what is on screen, the
screens say which invocation they show, and every run (probe runs too) is in the History."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import Input, Select

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import history, save_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.step_list import StepList
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    press,
    read_only_app,
    record_notices,
    settle,
    static_text,
    wait_until,
)

#: The issue's typo: the threshold as a string fails the input schema.
INVALID_TEXT = APPENDIX_B_TEXT.replace("80", '"80"')


def _invokes(app: SiaApp) -> int:
    """How many invoke requests the engine's run and its earlier invocations sent."""
    run = app.engine.run if app.engine is not None else None
    assert run is not None
    runs = [*run.past_invocations, run]
    return len({ex.seq for r in runs for ex in r.exchanges if ex.purpose == "invoke"})


async def _negative_test(pilot: Any, app: SiaApp) -> None:
    """Steps 1-6, then the invalid arguments sent anyway (ctrl+t, ctrl+j)."""
    await settle(pilot)
    await pilot.press("2", "r")
    await settle(pilot)
    await enter_arguments(pilot, INVALID_TEXT)
    await pilot.press("ctrl+t", "ctrl+j")
    await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
    await settle(pilot)
    run = app.current_run
    assert run is not None and run.verdict.outcome.value == "negative_test_passed"


async def test_restart_after_a_negative_test_resends_nothing(make_app: Any) -> None:
    """Item 5 of the issue: f4 puts the example on screen, then 2 R r re-sent the old
    invalid arguments and the Steps screen called it a negative test."""
    app = make_app()
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await _negative_test(pilot, app)
        # The example on screen (f4), out of the editor (esc, tab), then 2 R r.
        await press(pilot, "5", "f4", "escape", "tab", "2", "R", "r")
        run = app.current_run
        assert run is not None and run.verdict.waiting_for_arguments, run.verdict.headline
        assert _invokes(app) == 0 and not run.send_anyway
        assert isinstance(app.screen, StepsScreen)
        app.screen.select_step(8)
        await pilot.pause()
        assert "negative test" not in static_text(app, "#evidence-body").lower()
        assert any("press 5" in m and "ctrl+j" in m for m in told), told


async def test_a_probe_run_from_the_tui_is_in_the_history(make_app: Any) -> None:
    """Item 9 of the issue: every run is in the History, probe runs too."""
    app = make_app("ignores-max-input")
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("9", "p")
        await wait_until(pilot, lambda: any("Probes done" in m for m in told))
        await wait_until(pilot, lambda: any(e.kind == "probe" for e in history.list_history()))
        await pilot.press("7")
        await settle(pilot)
        entry = next(e for e in history.list_history() if e.kind == "probe")
        assert entry.outcome == "failed"  # the probes' verdict: oversized-input fails
        assert "probes ✘" in str(app.screen.query_one("DataTable").get_row_at(0))


async def test_valid_arguments_sent_anyway_are_not_called_a_negative_test(make_app: Any) -> None:
    """Send anyway armed, arguments valid: an ordinary invocation on every screen (the
    Results banner read the flag, not what step 7 found)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r")
        app.invoke(json.loads(APPENDIX_B_TEXT), True)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await settle(pilot)
        assert "negative test" not in static_text(app, "#status").lower()
        run = app.current_run
        assert (
            run is not None
            and run.verdict.outcome.value == "passed"
            and not run.verdict.negative_test
        )
        await press(pilot, "2")
        for step in (7, 8):
            app.screen.query_one(StepList).highlighted = step - 1
            await pilot.pause()
            assert "negative test" not in static_text(app, "#evidence-body").lower()


async def test_the_screens_say_which_invocation_they_show_with_its_own_events(
    make_app: Any, tmp_path: Path, user_dirs: UserDirs
) -> None:
    """Invocation 1 a negative test (sent sync, rejected), invocation 2 streamed: the header
    says "invocation 2 of 2", [ shows the first with its own verdict and no "⟳" line and no
    streamed record of the later stream, exactly as the same session shows it once saved and
    reopened; ] the latest again, and the save dialog says that both are saved."""
    app = make_app()
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await _negative_test(pilot, app)
        assert "invocation" not in static_text(app, "#target-header")
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        screen.query_one("#mode", Select).value = "stream"
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await settle(pilot)
        run = app.engine.run if app.engine is not None else None
        assert run is not None and run.mode == "stream" and run.stream_events
        assert any("Sending invocation 2 of 2" in m for m in told), told
        assert "invocation 2 of 2" in static_text(app, "#target-header")
        assert "NEGATIVE TEST" not in static_text(app, "#status")
        await press(pilot, "left_square_bracket")
        assert "invocation 1 of 2" in static_text(app, "#target-header")
        assert "NEGATIVE TEST PASSED" in static_text(app, "#status")
        assert "input_invalid" in static_text(app, "#error-summary")
        live = static_text(app, "#status"), static_text(app, "#records-body")
        await press(pilot, "right_square_bracket")
        assert "invocation 2 of 2" in static_text(app, "#target-header")
        assert "NEGATIVE TEST" not in static_text(app, "#status")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
        saves = static_text(app, "#saves")
        assert "Saves all 2 invocations" in saves and "invocation 2 of 2" in saves
        assert app.screen.query_one("#destination", Input).value
    assert "⟳" not in live[0] and "streaming" not in live[1], live
    path = tmp_path / "two.session.json"
    save_session(run, ClientOptions(), path)
    reopened = read_only_app(path, user_dirs)
    async with reopened.run_test(size=SIZE) as pilot:
        await press(pilot, "6", "left_square_bracket")
        assert "invocation 1 of 2" in static_text(reopened, "#target-header")
        assert (static_text(reopened, "#status"), static_text(reopened, "#records-body")) == live
