"""Verdicts on screen: what a person reads on each screen is the run's own verdict."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.cache import DocumentCache
from sia_tui.core.run.read_model import Target
from sia_tui.core.session import load_session, save_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.engine_port import build_procedure
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS as APPENDIX_B
from tests.support.sessions import record_live
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    invoke_appendix_b,
    no_network,
    send_link_check,
    settle,
    snapshot_app,
    static_text,
    wait_until,
)


# -- each pane shows its own verdict, with the located error ----------------------------------
async def test_a_bad_record_is_not_blamed_on_the_valid_result(make_app: Any) -> None:
    """record-invalid: the result pane says valid; the record pane names the record's own
    error (pointer, keyword, message); the header shows output_invalid (local), not only
    the agent's COMPLETED."""
    app = make_app("record-invalid")
    async with app.run_test(size=SIZE) as pilot:
        await invoke_appendix_b(pilot)
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "✔ valid against the output schema" in result
    assert "does not validate" not in result
    assert "✘ does not validate against its record schema" in records
    assert '"" (root)' in records and "required" in records and "observed_at" in records
    assert "TASK_STATE_COMPLETED" in status
    assert "✘ step 10 output_invalid (local)" in status
    assert "supporting record 'observation-7' does not validate" in status


async def test_an_invalid_result_shows_its_pointer_and_reason(make_app: Any) -> None:
    """output-invalid: the result pane gives the pointer, the keyword and why; the records
    stay valid."""
    app = make_app("output-invalid")
    async with app.run_test(size=SIZE) as pilot:
        await invoke_appendix_b(pilot)
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "✘ does not validate against the output schema" in result
    assert "/result" in result and "[enum:" in result
    assert "✔ valid against its record schema" in records
    assert "✘ step 10 output_invalid (local): the result does not validate" in status


# -- a cancel the user asked for reads "cancelled", not a failure ------------------------------
async def test_x_cancels_the_running_task_and_the_screen_says_cancelled(
    reference_agent: Any, user_dirs: UserDirs
) -> None:
    """The long-running skill streams; x cancels it: the Results header says CANCELLED, step
    9 is cancelled (⊗), and nothing is reported as failed."""
    agent = reference_agent(step_delay=0.5)
    target = Target(agent.url, skill_id="check_link_capacity", mode="stream")
    app = snapshot_app(target, dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await send_link_check(pilot)
        run = app.current_run
        assert run is not None
        # Not wait_until: it waits for the engine worker, i.e. for the task to end.
        for _ in range(250):
            if run.task is not None and run.steps[8].status.value == "running":
                break
            await pilot.pause(0.02)
        assert run.task is not None and not run.task.terminal
        await pilot.press("x")
        await wait_until(pilot, lambda: run.steps[8].status.value not in ("running", "not_run"))
        await settle(pilot)
        status = static_text(app, "#status")
    assert "⊗ CANCELLED: the task was cancelled as asked" in status
    assert run.steps[8].status.value == "cancelled" and run.failed_step is None


# -- marking a value secret never rewrites evidence; the editor masks it ----------------------
async def test_digests_of_a_session_with_a_marked_value_agree_with_its_steps(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Path
) -> None:
    """A saved session whose marked value sits in the published input schema: opened
    read-only, the Digests screen checks every embedded schema as step 6 did (all ✔)."""
    agent = reference_agent()
    run = await record_live(agent.url, ClientOptions(), arguments=APPENDIX_B)
    path = tmp_path / "marked.session.json"
    save_session(run, ClientOptions(), path, secret_values=["network-resource-123"])
    agent.stop()
    app = SiaApp(None, session=load_session(path), engine_factory=no_network, dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        table = app.screen.query_one("#schemas", DataTable)
        verdicts = [str(table.get_row_at(r)[1]) for r in range(table.row_count)]
        steps = app.current_run.steps if app.current_run else []
    assert steps[5].status.value == "passed"
    assert verdicts and all(v.startswith("✔") for v in verdicts), verdicts


async def test_a_marked_value_is_masked_in_the_argument_editor(make_app: Any) -> None:
    """docs/TUI.md: marked values are masked on every screen; the editor keeps its columns."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        app.add_secret_values(["network-resource-123"])
        screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
        editor = screen.query_one(ArgumentEditor)
        shown = [editor.get_line(i).plain for i in range(editor.document.line_count)]
    line = next(text for text in shown if "resource_id" in text)
    assert "network-resource-123" not in "".join(shown)
    assert '"resource_id": "' + "•" * len("network-resource-123") + '"' in line
    assert editor.text.count("network-resource-123") == 1  # what is sent is unchanged


# -- the TUI uses the document cache only when asked, and then says so -----------------------
async def test_open_with_cache_says_the_document_came_from_the_cache(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Path
) -> None:
    """open --cache: the second run reuses the bound document (RULES CP12); the header and
    step 3 say so. Without --cache (every other test) describe_skill is always called."""
    agent = reference_agent()
    factory = partial(build_procedure, cache=DocumentCache(tmp_path / "cache"))
    target = Target(agent.url, skill_id="evaluate_resource_condition")
    app = snapshot_app(target, engine_factory=factory, dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        assert "document from cache" not in static_text(app, "#target-header")
        await pilot.press("R")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        header = static_text(app, "#target-header")
        run = app.current_run
    assert run is not None and run.from_cache
    assert "document from cache" in header
    assert "describe_skill was not called" in run.steps[2].message
