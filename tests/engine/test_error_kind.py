"""A failed step names the error underneath (``error_kind``) on every surface that reads the
run, and a failed exchange says who is at fault and which flag to change, in
the read model every surface reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.cli import main
from sia_tui.core.a2a.http.recorder import translate
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bugreport import render_markdown
from sia_tui.core.engine.outcome import transport_failure
from sia_tui.core.errors import (
    DeadlineExceeded,
    EncodingRefused,
    OriginRefused,
    RequestTimeout,
    ResponseTooLarge,
    SiaError,
    TransportError,
)
from sia_tui.core.run.evidence import Party
from sia_tui.core.session import load_session
from sia_tui.core.session.upgrade import upgrade_run
from tests.support.agents import StartAgent
from tests.support.thread_cpu import thread_cpu


def test_a_size_limit_is_named_in_json_text_session_and_bug_report(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = reference_agent()
    saved = tmp_path / "small.session.json"
    small = ["--max-response-bytes", "200"]
    code = main(["check", agent.url, *small, "--json", "--save", str(saved)])
    report = json.loads(capsys.readouterr().out)
    step = report["steps"][0]
    assert code == 1 and step["status"] == "failed"
    assert step["error_kind"] == report["error"]["error_kind"] == "response_too_large"
    assert "--max-response-bytes" in step["hint"]
    assert report["at_fault"]["party"] == "limit"  # our limit, not the agent's fault

    assert main(["check", agent.url, *small]) == 1
    assert "       error: response_too_large" in capsys.readouterr().out

    loaded = load_session(saved)
    assert loaded.run.steps[0].error_kind == "response_too_large"
    assert "- error: response\\_too\\_large" in render_markdown(loaded, saved.name)


@pytest.mark.parametrize(
    ("error", "kind", "flag", "party"),
    [
        (
            DeadlineExceeded("the run's deadline of 2 s passed"),
            "deadline_exceeded",
            "--deadline",
            "agent",
        ),
        (RequestTimeout("response timed out"), "timeout", "--timeout", "agent"),
        (ResponseTooLarge("too large"), "response_too_large", "--max-response-bytes", "limit"),
        (EncodingRefused("'br' refused"), "encoding_refused", "Content-Encoding", "agent"),
        (OriginRefused("port '+80' is not plain"), "origin_refused", "plain ASCII digits", "agent"),
        (TransportError("connection refused"), "transport", "agent is running", "network"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
@pytest.mark.usefixtures("cli_wording")
def test_a_failed_exchange_names_its_kind_the_next_move_and_who_is_at_fault(
    error: SiaError, kind: str, flag: str, party: str
) -> None:
    failure = transport_failure("describe_skill failed", error)
    assert failure.error_kind == kind
    assert flag in failure.hint
    assert failure.blame is not None and failure.blame.party.value == party


def test_an_ambiguous_url_the_user_typed_blames_the_user() -> None:
    failure = transport_failure(
        "could not retrieve the Agent Card", OriginRefused("port"), url_author=Party.CALLER
    )
    assert failure.blame is not None and failure.blame.party is Party.CALLER


def test_only_a_cut_off_invocation_says_its_task_may_have_completed() -> None:
    """The size limit is sia-tui's: an invocation cut off by it may hide a completed task,
    a describe_skill answer cut off by it does not."""
    sent = transport_failure("delegation failed", ResponseTooLarge("too large"), task_sent=True)
    described = transport_failure("describe_skill failed", ResponseTooLarge("too large"))
    assert sent.blame is not None and "the task may have completed" in sent.blame.statement
    assert described.blame is not None and "may have completed" not in described.blame.statement


def test_the_deadline_keeps_its_own_message() -> None:
    failure = transport_failure("", DeadlineExceeded("the run's deadline of 2 s passed"))
    assert failure.message == "the run's deadline of 2 s passed"


def _v1_step(findings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "step": 10,
        "status": "failed",
        "findings": findings,
        "evidence": {"category": "draft", "error_kind": "invalid_json", "result": "r1"},
    }


def test_a_version_1_step_keeps_its_error_kind_outside_the_evidence() -> None:
    upgraded = upgrade_run({"steps": [_v1_step([])], "records": []})
    step = upgraded["steps"][0]
    assert (step["category"], step["error_kind"]) == ("draft", "invalid_json")
    assert "error_kind" not in step["evidence"]


def test_a_version_1_file_with_a_flood_of_findings_upgrades_in_linear_time() -> None:
    """Untrusted input: record findings used to be taken out of the step's by list lookups
    (50,000 each took 26 s). Ten times the findings may cost about ten times the time, never
    the hundred times a quadratic upgrade takes (a ratio measured in one run)."""
    result_only = {"message": "the result's own", "pointer": ""}

    def upgrade(size: int) -> tuple[float, dict[str, Any]]:
        flood = [{"message": f"m{i}", "pointer": f"/r/{i}"} for i in range(size)]
        records = [{"artifactId": "rec", "findings": flood}]
        run = {"steps": [_v1_step([*flood, result_only])], "records": records}
        return thread_cpu(lambda: upgrade_run(run))

    # Each the best of a few, in this thread's CPU (one timing of the large file on a loaded
    # machine once came out 30 times the small one's).
    small, _ = min((upgrade(5_000) for _ in range(3)), key=lambda each: each[0])
    large, upgraded = min((upgrade(50_000) for _ in range(2)), key=lambda each: each[0])
    assert large / small < 30
    assert upgraded["steps"][0]["evidence"]["result_findings"] == [result_only]


@pytest.mark.usefixtures("cli_wording")
def test_each_timeout_names_its_limit_and_a_refusal_still_says_connection_refused() -> None:
    """The hostile stream's precise timeouts and the plain "connection refused" live in one
    translate; each timeout names the flag (or option) that sets it."""
    options = ClientOptions(connect_timeout=4, read_timeout=9, total_timeout=30)
    refused = httpx.ConnectError("All connection attempts failed")
    refused.__cause__ = ConnectionRefusedError(111, "Connection refused")
    said = {
        name: str(translate(exc, "http://127.0.0.1:9/", options)).removesuffix(
            " (http://127.0.0.1:9/)"
        )
        for name, exc in {
            "connect": httpx.ConnectTimeout("slow"),
            "read": httpx.ReadTimeout("slow"),
            "total": TimeoutError(),
            "refused": refused,
        }.items()
    }
    assert said["connect"] == "connect timed out after 4 s (--connect-timeout)"
    assert said["read"] == "response timed out: no data for 9 s (--timeout)"
    assert "longer than 30 s (total_timeout)" in said["total"]
    assert said["refused"].startswith("connection refused")
