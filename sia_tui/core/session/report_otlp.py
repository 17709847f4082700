"""OTLP/JSON of a session (``sia-tui report --format otlp``, ``--otlp-endpoint``): the run as
OpenTelemetry spans that Jaeger, Tempo and the OpenTelemetry collector import.

One ``resourceSpans`` entry; per invocation a root span, a span per step of the procedure
under it, and a client span per exchange under the step that made it. An exchange's span
id is the one its ``traceparent`` carried, so the agent's own spans (whose parent it is)
join the same trace. Step verdicts and the draft's error codes are attributes. It is
built from a session as saved, so every secret is redacted exactly as in the session file;
no body is exported. A run that sent no trace headers (``--no-trace``, an older session)
gets ids derived from the session, stable from one export to the next.

The encoding is OTLP/JSON (the protobuf JSON mapping with OTLP's two changes: trace and
span ids as hex, enums as integers); 64-bit integers are strings, as the mapping writes them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from sia_tui import __version__
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.exchange import Exchange
from sia_tui.core.run.read_model import Invocation, Run, StepResult, StepStatus
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import pick_invocations
from sia_tui.core.session.store import as_saved

#: SpanKind (opentelemetry/proto/trace/v1/trace.proto) and Status.StatusCode, as integers.
KIND_INTERNAL, KIND_CLIENT = 1, 3
STATUS_UNSET, STATUS_OK, STATUS_ERROR = 0, 1, 2
SCOPE = "sia-tui"


def _derived(*parts: str, size: int) -> str:
    """A stable id (``size`` bytes, hex) for a span the run sent no header for."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    return digest[: size * 2] if digest[: size * 2].strip("0") else "1".rjust(size * 2, "0")


def _value(value: str | int | bool) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    return {"stringValue": value}


def _attributes(pairs: Iterable[tuple[str, str | int | bool | None]]) -> list[dict[str, Any]]:
    return [{"key": key, "value": _value(value)} for key, value in pairs if value is not None]


def _nanos(seconds: float) -> int:
    return max(0, round(seconds * 1e9))


def _exchange_span(ex: Exchange, trace_id: str, parent: str) -> dict[str, Any]:
    start = _nanos(ex.started_at)
    end = start + max(0, round(ex.elapsed_ms * 1e6))
    grpc = ex.grpc
    pairs: list[tuple[str, str | int | bool | None]] = [
        ("sia.exchange.seq", ex.seq),
        ("sia.exchange.purpose", ex.purpose),
        ("url.full", ex.url),
        ("http.request.method", None if grpc else ex.method),
        ("rpc.system", "grpc" if grpc else None),
        ("rpc.method", ex.url.rsplit("/", 1)[-1] if grpc else None),
        ("rpc.grpc.status_code", ex.status if grpc else None),
        ("http.response.status_code", None if grpc else ex.status),
        ("error.type", ex.error_kind),
        ("sia.exchange.truncated", True if ex.truncated else None),
    ]
    failed = ex.error is not None or ex.status is None or (ex.http_status or 0) >= 400
    status: dict[str, Any] = {"code": STATUS_ERROR if failed else STATUS_UNSET}
    if ex.error is not None:
        status["message"] = ex.error
    return {
        "traceId": trace_id,
        "spanId": ex.span_id or _derived(trace_id, "exchange", str(ex.seq), size=8),
        "parentSpanId": parent,
        "name": f"{ex.method} {ex.purpose}",
        "kind": KIND_CLIENT,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(end),
        "attributes": _attributes(pairs),
        "status": status,
    }


def _step_status(step: StepResult) -> dict[str, Any]:
    if step.status is StepStatus.FAILED:
        return {"code": STATUS_ERROR, "message": step.message}
    if step.status is StepStatus.PASSED:
        return {"code": STATUS_OK}
    return {"code": STATUS_UNSET}


def _spans(invocation: Invocation, trace_id: str) -> list[dict[str, Any]]:
    """The invocation's root span, its steps' spans and its exchanges' spans."""
    run = invocation.run
    label = str(invocation.number)
    root = _derived(trace_id, "invocation", label, size=8)
    by_seq = {ex.seq: ex for ex in run.exchanges}
    placed: set[int] = set()
    spans: list[dict[str, Any]] = []
    step_spans: list[dict[str, Any]] = []
    clock = min((ex.started_at for ex in run.exchanges), default=0.0)
    for step in run.steps:
        span_id = _derived(trace_id, "invocation", label, "step", str(step.step), size=8)
        own = [by_seq[seq] for seq in step.exchanges if seq in by_seq and seq not in placed]
        placed.update(ex.seq for ex in own)
        children = [_exchange_span(ex, trace_id, span_id) for ex in own]
        starts = [int(c["startTimeUnixNano"]) for c in children]
        ends = [int(c["endTimeUnixNano"]) for c in children]
        start = min(starts, default=_nanos(clock))
        end = max(ends, default=start)
        pairs: list[tuple[str, str | int | bool | None]] = [
            ("sia.step.number", step.step),
            ("sia.step.rule", step.rule),
            ("sia.step.status", step.status.value),
            ("sia.error.code", str(step.code) if step.code else None),
            ("sia.error.detected_by", str(step.origin) if step.origin else None),
            ("sia.error.category", str(step.category) if step.category else None),
            ("error.type", step.error_kind),
        ]
        step_spans.append(
            {
                "traceId": trace_id,
                "spanId": span_id,
                "parentSpanId": root,
                "name": f"step {step.step}: {step.title}",
                "kind": KIND_INTERNAL,
                "startTimeUnixNano": str(start),
                "endTimeUnixNano": str(end),
                "attributes": _attributes(pairs),
                "status": _step_status(step),
            }
        )
        spans += children
        clock = end / 1e9
    # Exchanges no step lists (a console message, a probe's) hang from the root.
    spans += [_exchange_span(ex, trace_id, root) for ex in run.exchanges if ex.seq not in placed]
    everything = [*step_spans, *spans]
    start = min((int(s["startTimeUnixNano"]) for s in everything), default=0)
    end = max((int(s["endTimeUnixNano"]) for s in everything), default=start)
    failed = run.failed_step
    blame = run.at_fault
    pairs = [
        ("sia.invocation", invocation.number),
        ("sia.outcome", run.outcome.value),
        ("sia.summary", run.summary),
        ("sia.skill.id", run.skill_id or run.target.skill_id),
        ("sia.target", run.target.location),
        ("sia.binding", run.interface.binding if run.interface else None),
        ("sia.mode", run.mode),
        ("sia.failed_step", failed.step if failed else None),
        ("sia.error.code", str(failed.code) if failed and failed.code else None),
        ("sia.at_fault", blame.party.value if blame else None),
        ("sia.task.id", run.task.id if run.task else None),
    ]
    outcome = {"code": STATUS_ERROR, "message": run.headline} if failed else {"code": STATUS_OK}
    root_span = {
        "traceId": trace_id,
        "spanId": root,
        "name": f"sia-tui {run.skill_id or '(no skill)'} ({invocation.label})",
        "kind": KIND_INTERNAL,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(end),
        "attributes": _attributes(pairs),
        "status": outcome if run.finished else {"code": STATUS_UNSET},
    }
    return [root_span, *everything]


def otlp_of_session(session: LoadedSession, number: int | None = None) -> dict[str, Any]:
    """The OTLP/JSON ``ExportTraceServiceRequest`` of a session as saved (redacted)."""
    spans: list[dict[str, Any]] = []
    for invocation in pick_invocations(session.run, number):
        run = invocation.run
        trace_id = run.trace_id or _derived(
            session.created, run.target.location, str(invocation.number), size=16
        )
        spans += _spans(invocation, trace_id)
    resource = _attributes(
        [
            ("service.name", "sia-tui"),
            ("service.version", str(session.tool.get("version", __version__))),
            ("sia.session.format", session.format),
        ]
    )
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": resource},
                "scopeSpans": [{"scope": {"name": SCOPE, "version": __version__}, "spans": spans}],
            }
        ]
    }


def render_otlp(session: LoadedSession, filename: str = "", number: int | None = None) -> str:
    """The OTLP/JSON text of a saved session (the signature of the ``report`` renderers)."""
    del filename
    return json.dumps(otlp_of_session(session, number), indent=2, ensure_ascii=False) + "\n"


def otlp_of_run(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> dict[str, Any]:
    """The OTLP/JSON of a live run, redacted by the very path that saves it as a session."""
    return otlp_of_session(as_saved(run, options, secret_values, secret_headers))
