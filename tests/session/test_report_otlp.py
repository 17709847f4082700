"""`sia-tui report SESSION --format otlp`: the run as OTLP/JSON, parsed strictly with OTLP's
own protobuf messages (tests/support/otlp.py): one root span per invocation, one span per
step and per exchange, verdicts and the draft's codes as attributes, no secret."""

from __future__ import annotations

import json
from pathlib import Path

from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.otlp import parse_otlp
from tests.support.otlp import span_attributes as attributes

SKILL = "evaluate_resource_condition"
CANARY = "canary-otlp-s3cr3t"


def saved_run(url: str, tmp_path: Path, *flags: str) -> Path:
    session = tmp_path / "run.session.json"
    code = main(
        ["check", url, "--skill", SKILL, "--args", "example", "--no-cache", "--save", str(session)]
        + list(flags)
    )
    assert code in (0, 1)
    return session


def otlp_text(session: Path, tmp_path: Path) -> str:
    out = tmp_path / "run.otlp.json"
    main(["report", str(session), "--format", "otlp", "-o", str(out)])
    return out.read_text(encoding="utf-8")


def test_a_passing_run_is_one_trace_of_steps_and_exchanges(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    session = saved_run(reference_agent().url, tmp_path, "--header", f"X-Api-Token: {CANARY}")
    text = otlp_text(session, tmp_path)
    assert CANARY not in text  # redacted as in the session
    request = parse_otlp(json.loads(text))
    saved = json.loads(session.read_text(encoding="utf-8"))
    trace = saved["run"]["trace_id"]

    [resource] = request.resource_spans
    assert {a.key: a.value.string_value for a in resource.resource.attributes}[
        "service.name"
    ] == "sia-tui"
    spans = list(resource.scope_spans[0].spans)
    assert {span.trace_id.hex() for span in spans} == {trace}
    [root] = [s for s in spans if not s.parent_span_id]
    steps = [s for s in spans if s.parent_span_id == root.span_id]
    assert [attributes(s)["sia.step.number"] for s in steps] == list(range(1, 12))
    assert all(attributes(s)["sia.step.status"] == "passed" for s in steps)
    assert all(s.status.code == Status.STATUS_CODE_OK for s in steps)
    clients = [s for s in spans if s.kind == Span.SPAN_KIND_CLIENT]
    # Each exchange's span is the one its traceparent carried: the agent's parent span.
    assert sorted(s.span_id.hex() for s in clients) == sorted(
        ex["span_id"] for ex in saved["exchanges"]
    )
    step_ids = {s.span_id for s in steps}
    assert all(s.parent_span_id in step_ids for s in clients)
    assert attributes(root)["sia.outcome"] == "passed"
    assert all(s.end_time_unix_nano >= s.start_time_unix_nano > 0 for s in spans)


def test_a_failed_step_carries_the_drafts_code_and_an_error_status(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    session = saved_run(reference_agent(fault="digest-card").url, tmp_path)
    request = parse_otlp(json.loads(otlp_text(session, tmp_path)))
    spans = list(request.resource_spans[0].scope_spans[0].spans)
    [failed] = [s for s in spans if s.status.code == Status.STATUS_CODE_ERROR and s.parent_span_id]
    found = attributes(failed)
    assert found["sia.step.number"] == 4 and found["sia.step.status"] == "failed"
    assert found["sia.error.code"] == "interface_invalid"
    [root] = [s for s in spans if not s.parent_span_id]
    assert attributes(root)["sia.error.code"] == "interface_invalid"
    assert root.status.code == Status.STATUS_CODE_ERROR


def test_a_run_without_trace_headers_still_exports_a_stable_trace(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    session = saved_run(reference_agent().url, tmp_path, "--no-trace")
    first, second = otlp_text(session, tmp_path), otlp_text(session, tmp_path)
    assert first == second
    spans = list(parse_otlp(json.loads(first)).resource_spans[0].scope_spans[0].spans)
    assert len({s.trace_id for s in spans}) == 1 and len(spans[0].trace_id) == 16
