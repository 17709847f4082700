"""The sia-session/1 file: round trip, atomic write, clear load errors, tamper detection."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.errors import SiaError
from sia_tui.core.run.evidence import CardEvidence
from sia_tui.core.run.later_evidence import DigestEvidence
from sia_tui.core.run.read_model import StepStatus
from sia_tui.core.session import SessionError, load_session, save_session
from tests.support.sessions import ADVERTISED, COMPUTED, canary_options, digest_card_run


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "run.session.json"
    save_session(digest_card_run(), canary_options(), path)
    return path


def test_round_trip_rebuilds_the_run(saved: Path) -> None:
    loaded = load_session(saved)
    run = loaded.run
    assert loaded.manifest_ok and loaded.warnings == []
    assert run.failed_step is not None and run.failed_step.step == 4
    assert run.failed_step.code == "interface_invalid"
    assert run.steps[4].status is StepStatus.SKIPPED
    assert (run.digests.advertised, run.digests.computed) == (ADVERTISED, COMPUTED)
    assert run.failed_step.findings[0].pointer == "/interface_digest"
    assert run.task is not None and run.task.artifacts[0].data_parts() == [{"x": 1}]
    assert len(run.exchanges) == 2
    assert run.exchanges[1].events == (b'{"event":1}', b"\xff\xfe binary")


def test_non_utf8_bodies_are_base64_with_a_marker(saved: Path) -> None:
    data = json.loads(saved.read_text(encoding="utf-8"))
    events = data["exchanges"][1]["events"]
    assert events[0] == {"encoding": "utf-8", "text": '{"event":1}'}
    assert events[1]["encoding"] == "base64"


def test_manifest_detects_an_edited_body(saved: Path) -> None:
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["exchanges"][1]["events"][0]["text"] = '{"event":2}'
    saved.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_session(saved)
    assert not loaded.manifest_ok
    assert "exchange 2 events 0 body does not match the manifest" in loaded.warnings[0]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"format": "har/1.2"}', "unsupported session format 'har/1.2'"),
        ("[1, 2]", "not a JSON object"),
        ("not json", "not valid JSON at line 1 column 1"),
        (
            '{"format": "sia-session/1", "run": {}, "exchanges": [], "manifest": {}}',
            "missing member 'target' of Run",
        ),
        (
            '{"format": "sia-session/1", "run": {"target": {"location": 5}}, "exchanges": [],'
            ' "manifest": {}}',
            "at /run/target/location: expected str, found int",
        ),
        ("[" * 100000, "not"),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SessionError) as info:
        load_session(path)
    assert isinstance(info.value, SiaError)
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_truncated_file_says_so(saved: Path) -> None:
    text = saved.read_text(encoding="utf-8")
    saved.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(SessionError, match="truncated"):
        load_session(saved)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="cannot read"):
        load_session(tmp_path / "nope.json")


def test_atomic_write_keeps_the_old_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.json"
    path.write_text("old", encoding="utf-8")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temp file left behind


def test_save_to_an_unwritable_place_is_a_session_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(SessionError, match="cannot write"):
        save_session(digest_card_run(), canary_options(), blocker / "sub" / "s.json")


def test_file_records_environment_and_outcome(saved: Path) -> None:
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["format"] == "sia-session/6"
    assert data["outcome"] == "failed" and data["failed_step"] == 4
    assert data["at_fault"]["party"] == "agent" and data["document_from_cache"] is False
    assert data["run"]["steps"][3]["evidence"]["kind"] == "digests"
    assert "httpx" in data["environment"]["dependencies"]
    assert data["manifest"]["bodies"]["1/response"].startswith("sha256:")


#: A file written by sia-tui 0.1.0 in the first format (provenance: docs/examples at that time).
V1_FILE = Path(__file__).parents[1] / "fixtures" / "sessions" / "digest-card-v1.session.json"


def test_a_version_1_file_is_upgraded_not_refused() -> None:
    """sia-session/1 files keep loading: their untyped evidence becomes the typed evidence,
    and the verdicts read from it are the ones the file recorded."""
    loaded = load_session(V1_FILE)
    run = loaded.run
    assert loaded.format == "sia-session/1" and not loaded.warnings
    assert run.failed_step is not None and run.failed_step.step == 4
    digests = run.evidence(DigestEvidence)
    assert digests is not None and digests.advertised == run.digests.advertised
    assert (
        run.answers.odd_one_out is not None and run.answers.odd_one_out.source.value == "advertised"
    )
    card = run.evidence(CardEvidence)
    assert card is not None and card.agent == "sia-tui reference agent"
    assert run.verdict.outcome.value == "failed"


def test_a_newer_format_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    """A file from a newer sia-tui says so in one line instead of being misread."""
    path = tmp_path / "future.session.json"
    data = json.loads(V1_FILE.read_text(encoding="utf-8"))
    data["format"] = "sia-session/7"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionError, match="sia-session/7.*newer sia-tui"):
        load_session(path)
