"""Probe runs in session files: redacted like every session, read back typed, and opened by
tools that know nothing of probes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.results import Grade
from sia_tui.core.probe.session import recorded_probe, report_from_session, save_probe_session
from sia_tui.core.session import FORMAT, load_session
from sia_tui.core.session.dataclass_json import SessionError
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.probe import probe
from tests.support.scripted_agent import BASE, ScriptedAgent, completed_task, task

TOKEN = "echoed-t0ken-4b7a"


def echoing(request: dict[str, Any]) -> dict[str, Any]:
    """An agent that quotes the caller's credential back when it rejects a request."""
    if request.get("arguments") == APPENDIX_B_ARGUMENTS:
        return completed_task()
    return task(
        "TASK_STATE_REJECTED",
        status_data=[{"code": "input_invalid", "message": f"bad request from Bearer {TOKEN}"}],
    )


async def test_an_echoed_credential_is_redacted_in_the_probe_member(tmp_path: Path) -> None:
    options = ClientOptions(bearer=TOKEN)
    report = await probe(BASE, transport=ScriptedAgent(invoke=echoing).transport(), options=options)
    said = [r.observed.message for r in report.results if r.observed is not None]
    assert any(TOKEN in m for m in said), "the agent did echo it"
    path = tmp_path / "p.session.json"
    save_probe_session(report, options, path)
    text = path.read_text(encoding="utf-8")
    assert TOKEN not in text
    loaded = load_session(path)
    record = recorded_probe(loaded)
    assert record is not None and len(record.results) == len(report.results)
    assert [r.grade for r in record.results] == [r.grade for r in report.results]
    shown = report_from_session(loaded)
    assert shown is not None and shown.results[0].kind is report.results[0].kind
    assert all(isinstance(r.grade, Grade) for r in shown.results)


async def test_a_probe_session_is_still_a_check_session(tmp_path: Path) -> None:
    """The session format gained an optional member: report reads it like any session."""
    report = await probe(BASE, transport=ScriptedAgent(invoke=echoing).transport())
    path = tmp_path / "p.session.json"
    save_probe_session(report, ClientOptions(), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == FORMAT
    assert [e["seq"] for e in document["exchanges"]] == list(
        range(1, len(document["exchanges"]) + 1)
    )
    assert main(["report", str(path), "-o", str(tmp_path / "r.md")]) == 0


def test_a_damaged_probe_member_is_a_located_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = Path(__file__).parents[2] / "docs" / "examples" / "digest-card.session.json"
    document = json.loads(source.read_text(encoding="utf-8"))
    document["probe"] = {"results": [{"kind": "no-such-probe"}]}
    path = tmp_path / "damaged.session.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SessionError, match="at /probe/results/0"):
        recorded_probe(load_session(path))
    assert main(["replay", str(path)]) == 2
    assert "/probe/results/0" in capsys.readouterr().err
