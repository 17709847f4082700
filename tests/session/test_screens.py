"""The History and redaction-preview screens, driven with Pilot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from sia_tui.core.redaction.redact import RedactionHit
from sia_tui.core.session import history
from sia_tui.core.session.store import preview_redactions
from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen
from sia_tui.tui.storage import UserDirs
from tests.support.sessions import canary_options, digest_card_run
from tests.support.tui import snapshot_app, static_text, wait_until


class Host(App[None]):
    """A bare app that records what a pushed screen dismissed with."""

    def __init__(self) -> None:
        super().__init__()
        self.results: list[object] = []


async def _history_mode(pilot: Pilot[Any]) -> DataTable[Any]:
    """From the connect screen (no target given) to the History mode's table."""
    await pilot.press("escape", "7")
    await pilot.pause()
    return pilot.app.screen.query_one(DataTable)


async def test_history_lists_deletes_and_opens(data_dir: Path, tmp_path: Path) -> None:
    older = history.autosave(digest_card_run(), canary_options())
    newer = history.autosave(digest_card_run(), canary_options())
    app = snapshot_app(dirs=UserDirs(tmp_path / "config", tmp_path / "data"))
    async with app.run_test(size=(120, 30)) as pilot:
        table = await _history_mode(pilot)
        assert table.row_count == 2
        assert "failed" in str(table.get_row_at(0)[3])
        await pilot.press("d", "y")  # deletes the newest (cursor on row 0), after asking
        await pilot.pause()
        assert table.row_count == 1 and not newer.exists()
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.session is not None)
        assert app.session is not None and app.session.path == str(older)


async def test_empty_history_says_so(data_dir: Path, tmp_path: Path) -> None:
    app = snapshot_app(dirs=UserDirs(tmp_path / "config", tmp_path / "data"))
    async with app.run_test(size=(100, 20)) as pilot:
        table = await _history_mode(pilot)
        assert table.row_count == 0
        assert "No saved runs yet" in static_text(app, "#history-empty")


async def test_redaction_preview_lists_and_confirms() -> None:
    hits = preview_redactions(digest_card_run(), canary_options())
    assert RedactionHit("authorization", "exchange 1 request header Authorization") in hits
    app = Host()
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(RedactionPreviewScreen(hits, "/tmp/x.json"), app.results.append)
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.row_count == len(hits)
        assert str(table.get_row_at(0)[0]).startswith("«redacted:")
        # The path field has the focus (typing goes into it): Enter confirms the save.
        await pilot.press("enter")
        await pilot.pause()
        app.push_screen(RedactionPreviewScreen([], "/tmp/x.json"), app.results.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [True, False]
