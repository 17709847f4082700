"""The live export of ``--otlp-endpoint``: a run's spans (``run_spans.py``, the model
``report --format otlp`` writes too) exported through the OpenTelemetry SDK's OTLP/HTTP
exporter (protobuf) to the collector the user named.

The SDK is imported here, inside the functions, and this module only on the flag's path:
a command run without the flag loads no ``opentelemetry`` (tests/core/command_imports.toml).
The spans are handed to the exporter as SDK ``ReadableSpan``s that carry our own ids (the
trace id of the run, the span id each exchange's traceparent carried), not made by an SDK
tracer, so the agent's spans join them.

The endpoint is the user's own flag, never a file's or an agent's. No redirect is followed,
the export is bounded by EXPORT_TIMEOUT (the SDK retries a 429, 502, 503 or 504 within it),
and a failure is a warning: the run's verdict does not depend on a collector. The SDK's own
log lines (which would reach stderr, or the TUI's screen, unredacted) are kept from
printing; what they say becomes that one warning.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import SiaError
from sia_tui.core.run.read_model import Run
from sia_tui.core.session.run_spans import SCOPE, RunSpan, RunTrace, trace_of_run

if TYPE_CHECKING:
    import requests
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.trace import SpanContext

#: The path of the traces signal (OTLP/HTTP), added to an endpoint given without a path.
TRACES_PATH = "/v1/traces"
#: Seconds the whole export may take, the SDK's retries included.
EXPORT_TIMEOUT = 10.0
#: The most of the collector's answer read for a partial success.
MAX_ANSWER_BYTES = 64 * 1024
#: The most of a failure's text put in the warning.
MAX_REASON = 300


class OtlpEndpointRefused(SiaError, ValueError):
    """An OTLP endpoint that is not an http(s) URL."""

    kind = "otlp_endpoint_refused"


def traces_url(endpoint: str) -> str:
    """The URL spans are posted to: ``endpoint`` as given when it has a path, else with
    ``/v1/traces`` (as OTEL_EXPORTER_OTLP_ENDPOINT is read). Raises OtlpEndpointRefused."""
    try:
        parts = urlsplit(endpoint)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise OtlpEndpointRefused(
            f"the OTLP endpoint must be an http(s) URL, got {endpoint[:100]!r}"
        )
    if parts.path in ("", "/"):
        parts = parts._replace(path=TRACES_PATH)
    return urlunsplit(parts)


class _Heard(logging.Handler):
    """Keeps what the SDK logs while this thread exports (matrix exports run on several
    threads at once), instead of logging's last resort printing it to stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._local = threading.local()

    def emit(self, record: logging.LogRecord) -> None:
        heard: list[logging.LogRecord] | None = getattr(self._local, "records", None)
        if heard is not None:
            heard.append(record)

    @contextmanager
    def listening(self) -> Iterator[list[logging.LogRecord]]:
        records: list[logging.LogRecord] = []
        self._local.records = records
        try:
            yield records
        finally:
            self._local.records = None


_HEARD = _Heard()
_SDK_LOGGER = logging.getLogger("opentelemetry")


def _keep_the_sdk_quiet() -> None:
    if _HEARD not in _SDK_LOGGER.handlers:
        _SDK_LOGGER.addHandler(_HEARD)
        _SDK_LOGGER.setLevel(logging.WARNING)
        _SDK_LOGGER.propagate = False


def _context(trace_id: str, span_id: str) -> SpanContext:
    from opentelemetry.trace import SpanContext, TraceFlags

    return SpanContext(int(trace_id, 16), int(span_id, 16), False, TraceFlags(TraceFlags.SAMPLED))


def sdk_spans(trace: RunTrace) -> list[ReadableSpan]:
    """``trace`` as the SDK's spans, each with the ids, times and attributes it has."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.util.instrumentation import InstrumentationScope
    from opentelemetry.trace import SpanKind, Status, StatusCode

    kinds = {"internal": SpanKind.INTERNAL, "client": SpanKind.CLIENT}
    codes = {"unset": StatusCode.UNSET, "ok": StatusCode.OK, "error": StatusCode.ERROR}
    resource = Resource(dict(trace.resource))
    scope = InstrumentationScope(SCOPE, trace.scope_version)

    def status(span: RunSpan) -> Status:
        if span.status == "error":  # the SDK keeps a description for errors only
            return Status(StatusCode.ERROR, span.status_message)
        return Status(codes[span.status])

    return [
        ReadableSpan(
            name=span.name,
            context=_context(span.trace_id, span.span_id),
            parent=_context(span.trace_id, span.parent_id) if span.parent_id else None,
            resource=resource,
            attributes=dict(span.attributes),
            kind=kinds[span.kind],
            status=status(span),
            start_time=span.start_ns,
            end_time=span.end_ns,
            instrumentation_scope=scope,
        )
        for span in trace.spans
    ]


def export_trace(endpoint: str, trace: RunTrace, *, timeout: float = EXPORT_TIMEOUT) -> str | None:
    """Export ``trace`` to ``endpoint`` with the SDK's OTLP/HTTP exporter: None when the
    collector took every span, else why not, in one sentence. Blocks (a worker thread's
    call in the matrix)."""
    import requests
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    url = traces_url(endpoint)
    _keep_the_sdk_quiet()
    met: list[requests.Response | requests.RequestException] = []

    class Watched(requests.Session):
        """The SDK's HTTP client, keeping each answer or error for the warning."""

        def request(self, *args: Any, **kwargs: Any) -> requests.Response:
            try:
                answer = super().request(*args, **kwargs)
            except requests.RequestException as exc:
                met.append(exc)
                raise
            met.append(answer)
            return answer

    exporter = OTLPSpanExporter(endpoint=url, timeout=timeout, session=Watched())
    try:
        with _HEARD.listening() as heard:
            result = exporter.export(sdk_spans(trace))
    finally:
        exporter.shutdown()  # type: ignore[no-untyped-call]
    last = met[-1] if met else None
    if result is SpanExportResult.SUCCESS:
        return _partial_success(last, url) if isinstance(last, requests.Response) else None
    return _failure(url, last, heard)


def export_run(
    endpoint: str,
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> str | None:
    """Export a live run's spans, redacted as its session is (``export_trace``)."""
    return export_trace(endpoint, trace_of_run(run, options, secret_values, secret_headers))


def _failure(
    url: str,
    last: requests.Response | requests.RequestException | None,
    heard: list[logging.LogRecord],
) -> str:
    """Why an export failed: the collector's status, else the error met on the way (or,
    when nothing was sent, what the SDK logged)."""
    if last is not None and not isinstance(last, Exception):
        return f"the OTLP collector at {url} answered HTTP {last.status_code}"
    if last is not None:
        reason = f"{type(last).__name__}: {last}"
    else:
        reason = heard[-1].getMessage() if heard else "nothing was sent"
    return f"the OTLP export to {url} failed: {reason[:MAX_REASON]}"


def _partial_success(answer: requests.Response, url: str) -> str | None:
    """A redirect (not followed: nothing was delivered), or what the collector's
    ExportTraceServiceResponse says it rejected (OTLP partial success)."""
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )

    if 300 <= answer.status_code < 400:
        return f"the OTLP collector at {url} answered HTTP {answer.status_code} (not followed)"
    try:
        parsed = ExportTraceServiceResponse.FromString(answer.content[:MAX_ANSWER_BYTES])
    except DecodeError:  # a JSON answer, or none: the spans were taken
        return None
    rejected = parsed.partial_success.rejected_spans
    if not rejected:
        return None
    said = parsed.partial_success.error_message
    message = f": {said[:200]}" if said else ""
    return f"the OTLP collector at {url} rejected {rejected} span(s){message}"
