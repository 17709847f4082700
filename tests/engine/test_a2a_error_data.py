"""A2A errors as data: ``a2a_error: {code, name, message, data, binding_status}`` for every
binding, redacted like everything else, in `check --json`, JUnit, the bug report, HAR and
`send`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.cli import main
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.engine.report_junit import run_junit_suite
from sia_tui.core.run.read_model import Target
from tests.support.agents import StartAgent
from tests.support.appendix_b import run_appendix_b
from tests.support.scripted_agent import BASE, SKILL, ScriptedAgent

CANARY = "canary-a2a-5ecr3t"
#: What each binding reports for an unknown task: the JSON-RPC code or the ErrorInfo
#: reason, and the HTTP status or the gRPC code.
EXPECTED = {
    "jsonrpc": (-32001, 200),
    "http-json": ("TASK_NOT_FOUND", 404),
    "grpc": ("TASK_NOT_FOUND", "NOT_FOUND"),
}


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
def test_send_reports_the_a2a_error_as_data_redacted_in_json_report_and_har(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    binding: str,
) -> None:
    agent = reference_agent(grpc_port=0)
    saved = tmp_path / "error.json"
    code = main(
        ["send", agent.url, "--text", "x", "--skill", "check_link_capacity"]
        + ["--task", CANARY, "--secret", CANARY, "--binding", binding]
        + ["--json", "--save", str(saved)]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert CANARY not in out
    error = json.loads(out)["error"]["a2a_error"]
    assert (error["code"], error["binding_status"]) == EXPECTED[binding]
    assert error["name"] == "TaskNotFoundError"
    assert error["message"].startswith("Task not found: «redacted")
    assert error["data"][0]["reason"] == "TASK_NOT_FOUND"
    main(["report", str(saved)])
    report = capsys.readouterr().out
    assert '"name": "TaskNotFoundError"' in report and CANARY not in report
    har = tmp_path / "error.har"
    main(["report", str(saved), "--format", "har", "-o", str(har)])
    entries = json.loads(har.read_text())["log"]["entries"]
    marked = [e["_a2a_error"] for e in entries if "_a2a_error" in e]
    assert [m["name"] for m in marked] == ["TaskNotFoundError"]
    assert CANARY not in har.read_text()


def _refusing_agent() -> ScriptedAgent:
    """Answers the invocation with a JSON-RPC error carrying data."""
    agent = ScriptedAgent()
    scripted = agent.handle

    def handle(request: httpx.Request) -> httpx.Response:
        envelope: dict[str, Any] = json.loads(request.content) if request.content else {}
        parts = envelope.get("params", {}).get("message", {}).get("parts", [{}])
        if parts[0].get("data", {}).get("skill") == SKILL:
            error = {"code": -32005, "message": "no such type", "data": {"accepted": ["a/b"]}}
            return httpx.Response(
                200, json={"jsonrpc": "2.0", "id": envelope["id"], "error": error}
            )
        return scripted(request)

    agent.handle = handle  # type: ignore[method-assign]
    return agent


async def test_check_json_and_junit_carry_the_a2a_error() -> None:
    agent = _refusing_agent()
    run = await run_appendix_b(
        Target(BASE, skill_id=SKILL), ClientOptions(), transport=agent.transport()
    )
    assert run.failed_step is not None and run.failed_step.step == 8
    assert run_to_json(run)["error"]["a2a_error"] == {
        "code": -32005,
        "name": "ContentTypeNotSupportedError",
        "message": "no such type",
        "data": {"accepted": ["a/b"]},
        "binding_status": 200,
    }
    (failed,) = [c for c in run_junit_suite(run).cases if c.status.value in ("failed", "error")]
    assert 'A2A error: {"code": -32005, "name": "ContentTypeNotSupportedError"' in failed.text
