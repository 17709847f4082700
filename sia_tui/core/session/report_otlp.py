"""OTLP/JSON of a session (``sia-tui report --format otlp``): the run's spans
(``run_spans.py``) as an ``ExportTraceServiceRequest`` that Jaeger, Tempo and the
OpenTelemetry collector import.

The encoding is OTLP/JSON (the protobuf JSON mapping with OTLP's two changes: trace and
span ids as hex, enums as integers); 64-bit integers are strings, as the mapping writes them.
"""

from __future__ import annotations

import json
from typing import Any

from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.run_spans import (
    SCOPE,
    Attributes,
    RunSpan,
    RunTrace,
    Value,
    trace_of_session,
)

#: SpanKind (opentelemetry/proto/trace/v1/trace.proto) and Status.StatusCode, as integers.
KINDS = {"internal": 1, "client": 3}
STATUSES = {"unset": 0, "ok": 1, "error": 2}


def _value(value: Value) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    return {"stringValue": value}


def _attributes(pairs: Attributes) -> list[dict[str, Any]]:
    return [{"key": key, "value": _value(value)} for key, value in pairs]


def _span(span: RunSpan) -> dict[str, Any]:
    status: dict[str, Any] = {"code": STATUSES[span.status]}
    if span.status_message is not None:
        status["message"] = span.status_message
    parent = {"parentSpanId": span.parent_id} if span.parent_id is not None else {}
    return {
        "traceId": span.trace_id,
        "spanId": span.span_id,
        **parent,
        "name": span.name,
        "kind": KINDS[span.kind],
        "startTimeUnixNano": str(span.start_ns),
        "endTimeUnixNano": str(span.end_ns),
        "attributes": _attributes(span.attributes),
        "status": status,
    }


def otlp_json(trace: RunTrace) -> dict[str, Any]:
    """The OTLP/JSON ``ExportTraceServiceRequest`` of ``trace``."""
    spans = [_span(span) for span in trace.spans]
    scope = {"name": SCOPE, "version": trace.scope_version}
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": _attributes(trace.resource)},
                "scopeSpans": [{"scope": scope, "spans": spans}],
            }
        ]
    }


def otlp_of_session(session: LoadedSession, number: int | None = None) -> dict[str, Any]:
    """The OTLP/JSON of a session as saved (redacted)."""
    return otlp_json(trace_of_session(session, number))


def render_otlp(session: LoadedSession, filename: str = "", number: int | None = None) -> str:
    """The OTLP/JSON text of a saved session (the signature of the ``report`` renderers)."""
    del filename
    return json.dumps(otlp_of_session(session, number), indent=2, ensure_ascii=False) + "\n"
