"""A canary secret planted through every input path appears in no output (issue #6)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sia_tui.core.session import autosave, load_session, save_session
from sia_tui.core.session.report_html import render_html
from sia_tui.core.session.report_md import render_markdown
from tests.support.sessions import (
    CANARIES,
    CANARY_ARGUMENT,
    canary_options,
    digest_card_run,
    run_session_cli,
)


def _assert_clean(text: str, where: str) -> None:
    found = [c for c in CANARIES if c in text]
    assert not found, f"{found} leaked into {where}"


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "canary.session.json"
    save_session(
        digest_card_run(),
        canary_options(),
        path,
        secret_values=[CANARY_ARGUMENT],
        secret_headers=["X-Tenant-Key"],
    )
    return path


def test_canaries_are_nowhere_in_the_saved_file(saved: Path) -> None:
    text = saved.read_text(encoding="utf-8")
    _assert_clean(text, "the session file")
    assert "«redacted:authorization»" in text and "«redacted:userinfo»" in text
    assert "«redacted:token»" in text and "«redacted:secret»" in text
    assert "«redacted:x-tenant-key»" in text
    assert "visible-1" in text  # a non-secret header is kept


def test_redacted_file_still_loads_and_says_what_was_redacted(saved: Path) -> None:
    loaded = load_session(saved)
    wheres = {h.where for h in loaded.redactions}
    assert "exchange 1 request header Authorization" in wheres
    assert "run /arguments/password" in wheres
    assert loaded.run.arguments == {"resource_id": "r-1", "password": "«redacted:secret»"}


def test_canaries_are_nowhere_in_the_reports(saved: Path) -> None:
    loaded = load_session(saved)
    _assert_clean(render_markdown(loaded, saved.name), "the Markdown report")
    _assert_clean(render_html(loaded, saved.name), "the HTML report")


def test_canaries_are_nowhere_in_cli_output_or_logs(
    saved: Path,
    tmp_path: Path,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    autosave(digest_card_run(), canary_options())
    for argv in (
        ["report", str(saved)],
        ["report", str(saved), "--format", "html"],
        ["report", str(saved), "-o", str(tmp_path / "r.md")],
        ["history"],
        ["history", "--json"],
    ):
        assert run_session_cli(argv) == 0
    out, err = capsys.readouterr()
    _assert_clean(out + err, "stdout/stderr")
    _assert_clean(caplog.text, "the logs")
    _assert_clean((tmp_path / "r.md").read_text(encoding="utf-8"), "report -o")


def test_history_file_is_redacted_too(data_dir: Path) -> None:
    """Autosave has no preview: redaction applies by construction, marked or not."""
    path = autosave(digest_card_run(), canary_options())
    text = path.read_text(encoding="utf-8")
    for canary in CANARIES:
        if canary != CANARY_ARGUMENT:  # an argument is only secret when the user marks it
            assert canary not in text
