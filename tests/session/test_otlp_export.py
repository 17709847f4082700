"""``--otlp-endpoint`` on check and matrix: the run's spans exported live through the
OpenTelemetry SDK's OTLP/HTTP exporter (protobuf) to a collector the user names (a fake one
here, on 127.0.0.1), parsed strictly with OTLP's own protobuf messages. The spans keep the
run's own ids: the trace id it recorded and the span id each traceparent carried. A
collector that fails is a warning, never the verdict."""

from __future__ import annotations

import json
import logging
import re
import socket
from pathlib import Path

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.otlp import parse_otlp, parse_otlp_protobuf
from tests.support.otlp import span_attributes as attributes
from tests.support.otlp_collector import Collector, fake_collector
from tests.support.plugfest import plugfest_file

SKILL = "evaluate_resource_condition"
CANARY = "canary-otlp-live-s3cr3t"
PROTOBUF = "application/x-protobuf"
SAVED = Path(__file__).parents[1] / "fixtures" / "sessions" / "digest-card-v1.session.json"


def check(url: str, endpoint: str, *flags: str) -> int:
    """``check`` of the example arguments, exporting to ``endpoint``."""
    argv = ["check", url, "--skill", SKILL, "--args", "example", "--no-cache", *flags]
    return main([*argv, "--otlp-endpoint", endpoint])


def exported(collector: Collector) -> ExportTraceServiceRequest:
    """The one export the collector received, as OTLP/HTTP protobuf, read strictly."""
    [received] = collector.received
    assert received.path == "/v1/traces"
    assert received.content_type == PROTOBUF
    return parse_otlp_protobuf(received.body)


def test_check_exports_the_runs_own_ids_through_the_sdk(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="sia_tui.agent.trace")
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
    assert capsys.readouterr().err == ""
    assert CANARY.encode() not in collector.received[0].body  # redacted as the session is
    request = exported(collector)
    [resource] = request.resource_spans
    assert {a.key: a.value.string_value for a in resource.resource.attributes}[
        "service.name"
    ] == "sia-tui"
    spans = list(resource.scope_spans[0].spans)
    assert len(spans) == 1 + 11 + 3  # the run, its eleven steps, its three exchanges
    trace = json.loads(session.read_text(encoding="utf-8"))["run"]["trace_id"]
    assert {span.trace_id.hex() for span in spans} == {trace}
    # Each exchange's span is the one its traceparent carried, as the agent received it.
    carried = re.findall(rf"trace_id={trace} parent_span_id=([0-9a-f]{{16}})", caplog.text)
    clients = [s for s in spans if s.kind == Span.SPAN_KIND_CLIENT]
    assert len(carried) == len(clients) == 3
    assert sorted(s.span_id.hex() for s in clients) == sorted(carried)
    [root] = [s for s in spans if not s.parent_span_id]
    steps = [s for s in spans if s.parent_span_id == root.span_id]
    assert [attributes(s)["sia.step.status"] for s in steps] == ["passed"] * 11
    assert all(s.status.code == Status.STATUS_CODE_OK for s in steps)
    assert {s.parent_span_id for s in clients} <= {s.span_id for s in steps}
    assert attributes(root)["sia.outcome"] == "passed"
    assert all(s.end_time_unix_nano >= s.start_time_unix_nano > 0 for s in spans)
    # The same spans as `report --format otlp` writes of the saved session (one model of
    # both), but for the flags only the SDK writes.
    for span in spans:
        span.ClearField("flags")
    out = tmp_path / "run.otlp.json"
    assert main(["report", str(session), "--format", "otlp", "-o", str(out)]) == 0
    assert parse_otlp(json.loads(out.read_text(encoding="utf-8"))) == request


def test_a_failed_step_is_exported_with_its_verdict_and_the_drafts_code(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_collector() as collector:
        code = check(reference_agent(fault="digest-card").url, collector.url)
    assert code == 1  # the verdict is the run's, exported or not
    assert "warning" not in capsys.readouterr().err
    spans = list(exported(collector).resource_spans[0].scope_spans[0].spans)
    [failed] = [s for s in spans if s.status.code == Status.STATUS_CODE_ERROR and s.parent_span_id]
    found = attributes(failed)
    assert found["sia.step.number"] == 4 and found["sia.step.status"] == "failed"
    assert found["sia.error.code"] == "interface_invalid"
    assert failed.status.message  # the step's message, kept for an error
    [root] = [s for s in spans if not s.parent_span_id]
    assert attributes(root)["sia.error.code"] == "interface_invalid"
    assert root.status.code == Status.STATUS_CODE_ERROR


def test_a_collector_that_refuses_is_a_warning_not_the_verdict(
    reference_agent: StartAgent,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    with fake_collector(status=400) as collector:
        code = check(reference_agent().url, f"{collector.url}/otlp/v1/traces")
    assert code == 0
    assert [r.path for r in collector.received] == ["/otlp/v1/traces"]  # a path is kept
    err = capsys.readouterr().err
    assert err == (
        f"sia-tui check: warning: the OTLP collector at {collector.url}/otlp/v1/traces "
        "answered HTTP 400\n"
    )  # one located line
    # The SDK's own log lines (unredacted; on the TUI's screen they would be garbage)
    # reach no handler of the application's: logging's last resort would print them.
    assert [r.name for r in caplog.records if r.name.startswith("opentelemetry")] == []


def test_spans_the_collector_rejects_are_a_warning(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = ExportTraceServiceResponse()
    answer.partial_success.rejected_spans = 2
    answer.partial_success.error_message = "too old"
    with fake_collector(answer=answer.SerializeToString()) as collector:
        assert check(reference_agent().url, collector.url) == 0
    err = capsys.readouterr().err
    assert f"the OTLP collector at {collector.url}/v1/traces rejected 2 span(s): too old" in err


def test_a_redirect_is_not_followed(
    reference_agent: StartAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_collector(status=307, location="http://127.0.0.1:9/v1/traces") as collector:
        assert check(reference_agent().url, collector.url) == 0
    assert len(collector.received) == 1
    assert "answered HTTP 307 (not followed)" in capsys.readouterr().err


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
        assert received.content_type == PROTOBUF
        spans = parse_otlp_protobuf(received.body).resource_spans[0].scope_spans[0].spans
        assert len({span.trace_id for span in spans}) == 1


def test_a_collector_that_cannot_be_reached_is_named_with_the_error() -> None:
    """What the SDK met (here a refused connection) is the warning's reason, within the
    export's bound (a short one here: the SDK retries no longer than it allows)."""
    from sia_tui.core.session import load_session
    from sia_tui.core.session.otlp_export import export_trace
    from sia_tui.core.session.run_spans import trace_of_session

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    trace = trace_of_session(load_session(SAVED))
    problem = export_trace(f"http://127.0.0.1:{port}", trace, timeout=0.5)
    assert problem is not None
    assert problem.startswith(f"the OTLP export to http://127.0.0.1:{port}/v1/traces failed: ")
    assert "ConnectionError" in problem
