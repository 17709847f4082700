"""The history: autosave under the data dir, listing, bounds, deletion."""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.core.session import history
from tests.support.sessions import canary_options, digest_card_run, run_session_cli


def test_autosave_lists_target_skill_outcome_and_failing_step(data_dir: Path) -> None:
    path = history.autosave(digest_card_run(), canary_options())
    assert path.parent == data_dir / "history"
    [entry] = history.list_history()
    assert entry.skill == "evaluate_resource_condition"
    assert (entry.outcome, entry.failed_step) == ("failed", 4)
    assert "«redacted:userinfo»" in entry.target
    assert history.entry_path(entry) == path


def test_history_is_bounded(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "MAX_ENTRIES", 3)
    paths = [history.autosave(digest_card_run(), canary_options()) for _ in range(5)]
    entries = history.list_history()
    assert len(entries) == 3
    assert not paths[0].exists() and not paths[1].exists() and paths[4].exists()


def test_history_total_size_is_bounded(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = history.autosave(digest_card_run(), canary_options()).stat().st_size
    monkeypatch.setattr(history, "MAX_TOTAL_BYTES", one * 2 + 10)
    for _ in range(3):
        history.autosave(digest_card_run(), canary_options())
    assert len(history.list_history()) == 2


def test_delete_and_clear(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = history.autosave(digest_card_run(), canary_options())
    history.autosave(digest_card_run(), canary_options())
    entry_id = first.name.removesuffix(".session.json")
    assert run_session_cli(["history", "delete", entry_id]) == 0
    assert not first.exists() and len(history.list_history()) == 1
    assert run_session_cli(["history", "delete", "no-such-id"]) == 2
    assert "no history entry" in capsys.readouterr().err
    assert run_session_cli(["history", "clear"]) == 0
    assert history.list_history() == []


def test_a_damaged_index_loses_only_the_list(data_dir: Path) -> None:
    history.autosave(digest_card_run(), canary_options())
    (data_dir / "history" / "index.json").write_text("{oops", encoding="utf-8")
    assert history.list_history() == []
    history.autosave(digest_card_run(), canary_options())
    assert len(history.list_history()) == 1
