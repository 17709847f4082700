"""OTLP/JSON read strictly as a collector reads it: OTLP's own protobuf messages
(opentelemetry-proto) through protobuf's json_format, unknown members refused."""

from __future__ import annotations

import base64
import copy
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import Span

_ID_MEMBERS = ("traceId", "spanId", "parentSpanId")


def parse_otlp(document: dict[str, Any]) -> ExportTraceServiceRequest:
    """``document`` as an ``ExportTraceServiceRequest``; raises json_format.ParseError.

    OTLP/JSON writes trace and span ids as hex where the protobuf JSON mapping writes
    bytes as base64 (the one documented difference, besides integer enums, which
    json_format accepts): the ids are turned into base64 first, and a hex id of the wrong
    length or not hex at all fails here.
    """
    converted = copy.deepcopy(document)
    for resource in converted.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for member in _ID_MEMBERS:
                    if member in span:
                        span[member] = base64.b64encode(bytes.fromhex(span[member])).decode()
    message = ExportTraceServiceRequest()
    json_format.ParseDict(converted, message, ignore_unknown_fields=False)
    return message


def parse_otlp_protobuf(body: bytes) -> ExportTraceServiceRequest:
    """An OTLP/HTTP protobuf body as an ``ExportTraceServiceRequest``, read strictly: it
    must parse, and say nothing the messages do not know (unknown fields would be dropped
    on the way through JSON, so the bytes written again would differ)."""
    message = ExportTraceServiceRequest.FromString(body)
    known = ExportTraceServiceRequest()
    json_format.ParseDict(json_format.MessageToDict(message), known)
    assert known.SerializeToString() == body, "the body holds fields OTLP does not define"
    return message


def span_attributes(span: Span) -> dict[str, Any]:
    """A span's attributes as a dict; each one must hold a value."""
    out: dict[str, Any] = {}
    for pair in span.attributes:
        kind = pair.value.WhichOneof("value")
        assert kind is not None, pair.key
        out[pair.key] = getattr(pair.value, kind)
    return out
