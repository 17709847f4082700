"""Copying and screenshots say what they did, and where: a silent copy looks like a lost one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from sia_tui.tui import exports
from sia_tui.tui.screens.help import HelpScreen
from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen
from tests.support.tui import (
    SIZE,
    SMALL,
    press,
    record_notices,
    settle,
    static_text,
    wait_until,
)


@pytest.fixture
def downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A download folder that does not exist yet."""
    folder = tmp_path / "home" / "Downloads"
    monkeypatch.setattr(exports, "export_dir", lambda: folder)
    return folder


async def test_the_screenshot_key_is_in_f1_and_creates_the_download_folder(
    make_app: Any, downloads: Path
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "| `f12` | Screenshot:" in app.screen.markdown
        await pilot.press("escape")
        told = record_notices(app)
        await pilot.press("f12")
        await settle(pilot)
        (svg,) = downloads.glob("sia-tui-*.svg")
        assert "<svg" in svg.read_text(encoding="utf-8")
        assert told == [str(svg)]


async def test_a_screenshot_that_cannot_be_written_names_the_path(
    make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(exports, "export_dir", lambda: blocker / "Downloads")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        told = record_notices(app)
        await pilot.press("f12")
        await settle(pilot)
        assert len(told) == 1 and told[0].startswith(f"Cannot write {blocker / 'Downloads'}: ")


async def test_copy_says_how_the_text_was_sent_and_w_writes_it_to_a_file(
    make_app: Any, downloads: Path
) -> None:
    """OSC 52 cannot be confirmed (tmux without set-clipboard drops it): say so, and offer
    the file."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r", "3")
        copied: list[str] = []
        app.copy_to_clipboard = copied.append
        told = record_notices(app)
        await pilot.press("c")
        await settle(pilot)
        run = app.current_run
        assert run is not None and copied == [run.digests.advertised]
        assert "OSC 52" in told[-1] and "set-clipboard" in told[-1] and "Press w" in told[-1]
        await pilot.press("w")
        await settle(pilot)
        (written,) = downloads.glob("sia-tui-*.txt")
        assert written.read_text(encoding="utf-8") == run.digests.advertised
        assert told[-1] == str(written)


async def save_har_where_asked(pilot: Any, har: Path) -> list[str]:
    """f9, then the save dialog of ctrl+s: it says HAR, its default path is in ctrl+s's
    folder; the path typed over it, Enter saves. The notices shown from then on."""
    app = pilot.app
    await pilot.press("f9")
    await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
    screen = app.screen
    assert "Save HAR to" in static_text(app, "#title")
    destination = screen.query_one("#destination", Input)
    await wait_until(pilot, lambda: destination.has_focus)  # focused once it is mounted
    default = Path(destination.value)
    assert default.parent == Path(".") and default.name.startswith("sia-")
    assert default.suffix == ".har"
    destination.value = str(har)
    told = record_notices(app)
    await pilot.press("enter")
    await settle(pilot)
    return told


async def test_f9_asks_where_to_save_the_har_with_secrets_redacted(
    make_app: Any, downloads: Path, tmp_path: Path
) -> None:
    """f9 asks where to save every exchange of the run as HAR 1.2, in the dialog ctrl+s
    uses with the same default folder (nothing lands in the download folder unasked); a
    value the user marked secret is redacted there as in a saved session."""
    import json

    from tests.session.test_report_har import check_har_1_2

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "r")
        run = app.current_run
        assert run is not None and run.exchanges
        app.add_secret_values([run.target.skill_id or ""])
        har = tmp_path / "exchanges.har"
        told = await save_har_where_asked(pilot, har)
        assert told == [str(har)]
        assert not list(downloads.glob("*.har"))
        text = har.read_text(encoding="utf-8")
        entries = check_har_1_2(json.loads(text))
        assert len(entries) == len(run.exchanges)
        assert "evaluate_resource_condition" not in text  # marked secret: redacted
        assert entries[0]["request"]["url"].endswith("/.well-known/agent-card.json")


async def test_f9_exports_a_recorded_session_without_the_network(
    downloads: Path, tmp_path: Path, user_dirs: Any
) -> None:
    """A session opened read-only exports its recorded exchanges (its secrets were redacted
    when it was saved, and stay so)."""
    import json

    from sia_tui.core.session import save_session
    from tests.session.test_report_har import check_har_1_2
    from tests.support.sessions import CANARIES, CANARY_ARGUMENT, canary_options, digest_card_run
    from tests.support.tui import read_only_app

    path = tmp_path / "s.session.json"
    save_session(digest_card_run(), canary_options(), path, secret_values=[CANARY_ARGUMENT])
    app = read_only_app(path, user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        har = tmp_path / "recorded.har"
        told = await save_har_where_asked(pilot, har)
        assert told[-1] == str(har)
        text = har.read_text(encoding="utf-8")
        assert len(check_har_1_2(json.loads(text))) == 2
        assert not [c for c in CANARIES if c in text]


async def test_the_save_dialog_with_nothing_to_redact_is_as_tall_as_what_it_says(
    make_app: Any,
) -> None:
    """ctrl+s at 80x24 with no secret in the run: no redaction table, so the frame ends
    right under Save (y) and Cancel (n), not a dozen empty rows below them."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "2", "r")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
        await settle(pilot)
        assert "No secrets were found to redact." in static_text(app, "#summary")
        frame = app.screen.query_one("RedactionPreviewScreen > Vertical").region
        buttons = app.screen.query_one("RedactionPreviewScreen Horizontal").region
        assert frame.bottom - buttons.bottom == 2  # the padding row, then the frame's edge
