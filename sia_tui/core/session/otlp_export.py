"""The live export of ``--otlp-endpoint``: a run's OTLP/JSON (``report_otlp.py``) posted over
OTLP/HTTP to the collector the user named.

Posted with httpx, which every networked command already loads, rather than through the
OpenTelemetry SDK: the SDK and its OTLP/HTTP exporter add about 6 MB (requests, urllib3 and
googleapis-common-protos with them) and 0.7-1 s of imports on this machine, and its tracer
makes span ids of its own, when these spans must keep the ids each exchange's traceparent
carried (the agent's spans hang from them). pyproject.toml says the same.

The endpoint is the user's own flag, never a file's or an agent's. Nothing is followed
(no redirect), the answer is read bounded, and a failure is a warning: the run's verdict
does not depend on a collector.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from sia_tui.core.errors import SiaError
from sia_tui.core.jsonkit.strictjson import loads as load_json

#: The path of the traces signal (OTLP/HTTP), added to an endpoint given without a path.
TRACES_PATH = "/v1/traces"
#: Seconds the collector has to answer.
EXPORT_TIMEOUT = 10.0
#: The most of the collector's answer read (a partial-success message).
MAX_ANSWER_BYTES = 64 * 1024


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


async def export_otlp(
    endpoint: str,
    document: dict[str, Any],
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> str | None:
    """Post ``document`` (an OTLP/JSON ExportTraceServiceRequest) to ``endpoint``: None
    when the collector took every span, else why not, in one sentence."""
    url = traces_url(endpoint)
    body = json.dumps(document, ensure_ascii=False).encode("utf-8")
    try:
        async with (
            httpx.AsyncClient(
                transport=transport, timeout=EXPORT_TIMEOUT, follow_redirects=False
            ) as client,
            client.stream(
                "POST", url, content=body, headers={"Content-Type": "application/json"}
            ) as response,
        ):
            answer = bytearray()
            async for chunk in response.aiter_bytes():
                answer += chunk
                if len(answer) > MAX_ANSWER_BYTES:
                    break
    except httpx.HTTPError as exc:
        return f"the OTLP export to {url} failed: {type(exc).__name__}: {exc}"
    if not 200 <= response.status_code < 300:
        return f"the OTLP collector at {url} answered HTTP {response.status_code}"
    return _partial_success(bytes(answer[:MAX_ANSWER_BYTES]), url)


def _partial_success(answer: bytes, url: str) -> str | None:
    """What an ExportTraceServiceResponse says it rejected (OTLP partial success)."""
    try:
        parsed = load_json(answer or b"{}", source=url, max_bytes=MAX_ANSWER_BYTES)
    except SiaError:  # a protobuf answer, or none: the spans were taken
        return None
    partial = parsed.get("partialSuccess") if isinstance(parsed, dict) else None
    if not isinstance(partial, dict):
        return None
    rejected = partial.get("rejectedSpans")
    if rejected in (None, 0, "0"):
        return None
    said = partial.get("errorMessage")
    message = f": {str(said)[:200]}" if said else ""
    return f"the OTLP collector at {url} rejected {rejected} span(s){message}"
