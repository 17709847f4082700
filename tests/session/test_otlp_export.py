"""``--otlp-endpoint`` on check and matrix: the run's spans posted live over OTLP/HTTP to a
collector the user names (a fake one here, on 127.0.0.1), parsed strictly with OTLP's own
protobuf messages; a collector that fails is a warning, never the verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.otlp import parse_otlp
from tests.support.otlp_collector import fake_collector
from tests.support.plugfest import plugfest_file

SKILL = "evaluate_resource_condition"
CANARY = "canary-otlp-live-s3cr3t"


def check(url: str, endpoint: str, *flags: str) -> int:
    """``check`` of the example arguments, exporting to ``endpoint``."""
    argv = ["check", url, "--skill", SKILL, "--args", "example", "--no-cache", *flags]
    return main([*argv, "--otlp-endpoint", endpoint])


def test_check_exports_the_run_it_saved(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "run.session.json"
    with fake_collector() as collector:
        code = check(
            reference_agent().url,
            collector.url,
            "--header",
            f"X-Api-Token: {CANARY}",
            "--save",
            str(session),
        )
    assert code == 0
    assert "warning" not in capsys.readouterr().err
    [received] = collector.received
    assert received.path == "/v1/traces"
    assert received.content_type == "application/json"
    assert CANARY.encode() not in received.body  # redacted as the session is
    request = parse_otlp(json.loads(received.body))
    spans = list(request.resource_spans[0].scope_spans[0].spans)
    trace = json.loads(session.read_text(encoding="utf-8"))["run"]["trace_id"]
    assert {span.trace_id.hex() for span in spans} == {trace}
    assert len(spans) == 1 + 11 + 3  # the run, its eleven steps, its three exchanges


def test_a_collector_that_fails_is_a_warning_not_the_verdict(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_collector(status=503) as collector:
        code = check(reference_agent().url, f"{collector.url}/otlp/v1/traces")
    assert code == 0
    assert [r.path for r in collector.received] == ["/otlp/v1/traces"]  # a path is kept
    err = capsys.readouterr().err
    assert "warning: the OTLP collector" in err and "answered HTTP 503" in err


def test_an_endpoint_that_is_not_a_url_is_refused_before_anything_is_sent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "http://127.0.0.1:9", "--otlp-endpoint", "file:///etc/x"]) == 2
    assert "--otlp-endpoint" in capsys.readouterr().err


def test_matrix_exports_each_run(reference_agent: StartAgent, tmp_path: Path) -> None:
    head = 'bindings = ["JSONRPC"]\nmodes = ["sync"]'
    path = plugfest_file(tmp_path, {"a": reference_agent().url}, head=head)
    with fake_collector() as collector:
        # exit 3: the skills that may act are not invoked without --allow-execute
        assert main(["matrix", str(path), "--json", "--otlp-endpoint", collector.url]) == 3
    assert len(collector.received) >= 7  # one export per run: at least one per cell
    for received in collector.received:
        spans = parse_otlp(json.loads(received.body)).resource_spans[0].scope_spans[0].spans
        assert len({span.trace_id for span in spans}) == 1
