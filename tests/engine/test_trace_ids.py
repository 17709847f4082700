"""One run's W3C trace id, end to end: sent on every exchange, logged and echoed by the
reference agent, kept in the session, and shown by ``check`` (text, --json, JUnit), the bug
report (Markdown, HTML) and the HAR, so the agent's vendor can search their logs for it."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"


def check(url: str, *flags: str) -> int:
    return main(["check", url, "--skill", SKILL, "--args", "example", "--no-cache", *flags])


def report(session: Path, fmt: str, tmp_path: Path) -> str:
    out = tmp_path / f"report.{fmt}"
    assert main(["report", str(session), "--format", fmt, "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_the_trace_id_joins_the_session_the_reports_the_har_and_the_agents_log(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="sia_tui.agent.trace")
    agent = reference_agent()
    session, junit = tmp_path / "run.session.json", tmp_path / "junit.xml"
    assert check(agent.url, "--save", str(session), "--junit", str(junit)) == 0
    text = capsys.readouterr().out

    saved: dict[str, Any] = json.loads(session.read_text(encoding="utf-8"))
    trace = saved["run"]["trace_id"]
    assert re.fullmatch(r"[0-9a-f]{32}", trace)
    spans = [ex["span_id"] for ex in saved["exchanges"]]
    assert len(spans) == len(set(spans)) == len(saved["exchanges"]) >= 3
    # The agent's log: one line per call, naming the trace and the caller's span.
    for span in spans:
        assert f"trace_id={trace} parent_span_id={span}" in caplog.text
    # The agent's echo: the invocation's task carries the trace id in its metadata.
    invoke = next(ex for ex in saved["exchanges"] if ex["purpose"] == "invoke")
    answer = json.loads(invoke["response"]["body"]["text"])
    assert answer["result"]["task"]["metadata"] == {"traceId": trace}

    assert f"trace: {trace}" in text
    assert all(f"span {span}" in text for span in spans)
    xml = junit.read_text(encoding="utf-8")
    assert f'name="trace_id" value="{trace}"' in xml
    assert all(span in xml for span in spans)
    for fmt in ("markdown", "html"):
        written = report(session, fmt, tmp_path)
        assert trace in written and all(span in written for span in spans)
    har = json.loads(report(session, "har", tmp_path))
    entries = har["log"]["entries"]
    assert [e["_spanId"] for e in entries] == spans
    assert {e["_traceId"] for e in entries} == {trace}


def test_json_report_names_the_trace_and_each_span(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(reference_agent().url, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert re.fullmatch(r"[0-9a-f]{32}", out["trace_id"])
    spans = [ex["span_id"] for ex in out["exchanges"]]
    assert all(re.fullmatch(r"[0-9a-f]{16}", span) for span in spans) and len(set(spans)) == 3


def test_no_trace_sends_none_and_shows_none(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="sia_tui.agent.trace")
    session = tmp_path / "run.session.json"
    assert check(reference_agent().url, "--no-trace", "--save", str(session)) == 0
    assert "trace:" not in capsys.readouterr().out
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["run"]["trace_id"] is None
    assert not any("span_id" in ex for ex in saved["exchanges"])
    assert "trace_id=" not in caplog.text
    assert "Trace" not in report(session, "markdown", tmp_path)


def test_a_session_with_a_forged_span_id_is_refused(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A session file is someone else's: an id that is not W3C hex is not shown as one."""
    session = tmp_path / "run.session.json"
    assert check(reference_agent().url, "--save", str(session)) == 0
    saved = json.loads(session.read_text(encoding="utf-8"))
    saved["exchanges"][0]["span_id"] = "<script>alert(1)</script>"
    session.write_text(json.dumps(saved), encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(session)]) == 2
    assert "not a W3C span id" in capsys.readouterr().err
