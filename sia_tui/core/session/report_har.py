"""HAR 1.2 of a session's exchanges (``sia-tui report --format har``, the TUI's export).

Browser devtools, Charles and Insomnia import it. It is built from a session as saved, so
every secret is redacted exactly as in the session file; credential headers are masked
once more as in every report. A gRPC call becomes a pseudo-entry: POST to its
``grpc(s)://`` method URL, ProtoJSON bodies, the HTTP status its gRPC code stands for,
and a comment saying so (HAR has no gRPC; skipping the calls would hide half a run).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from sia_tui import __version__
from sia_tui.core.a2a.error_data import a2a_error_of
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.exchange import Exchange
from sia_tui.core.redaction.redact import mask_headers
from sia_tui.core.run.read_model import Run
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import pick_invocations, session_exchanges
from sia_tui.core.session.store import as_saved
from sia_tui.core.trace_context import trace_of

#: Headers, timings and sizes a recorder did not measure, as HAR 1.2 writes "not known".
_UNKNOWN = -1


def _headers(headers: Iterable[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in mask_headers(headers)]


def _header(headers: Iterable[tuple[str, str]], name: str) -> str:
    return next((v for k, v in headers if k.lower() == name), "")


def _text(data: bytes) -> dict[str, str]:
    """A body as HAR text: UTF-8 when it is, else base64 (HAR 1.2 ``encoding``)."""
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"text": base64.b64encode(data).decode("ascii"), "encoding": "base64"}


def _started(ex: Exchange) -> str:
    return datetime.fromtimestamp(ex.started_at, UTC).isoformat(timespec="milliseconds")


def _request(ex: Exchange) -> dict[str, Any]:
    request: dict[str, Any] = {
        "method": ex.method,
        "url": ex.url,
        "httpVersion": "HTTP/2" if ex.grpc else "HTTP/1.1",
        "cookies": [],
        "headers": _headers(ex.request_headers),
        "queryString": [
            {"name": k, "value": v} for k, v in parse_qsl(urlsplit(ex.url).query, True)
        ],
        "headersSize": _UNKNOWN,
        "bodySize": len(ex.request_body),
    }
    if ex.request_body:
        mime = _header(ex.request_headers, "content-type") or "application/json"
        request["postData"] = {"mimeType": mime, **_text(ex.request_body)}
    return request


def _response(ex: Exchange) -> dict[str, Any]:
    body = ex.response_body
    if not body and ex.events:  # a gRPC stream: its messages, one ProtoJSON text a line
        body = b"\n".join(ex.events)
    mime = _header(ex.response_headers, "content-type")
    if ex.grpc:
        mime = "application/json"  # ProtoJSON, whatever the wire's content-type said
    response: dict[str, Any] = {
        "status": ex.http_status or 0,  # 0: no response arrived (as browsers write it)
        "statusText": ex.status_text if ex.status is not None else "",
        "httpVersion": "HTTP/2" if ex.grpc else "HTTP/1.1",
        "cookies": [],
        "headers": _headers(ex.response_headers),
        "content": {"size": len(body), "mimeType": mime or "x-unknown", **_text(body)},
        "redirectURL": _header(ex.response_headers, "location"),
        "headersSize": _UNKNOWN,
        "bodySize": len(body) if ex.status is not None else _UNKNOWN,
    }
    if ex.events_not_kept:  # kept: the first events and the last (limits.py)
        response["comment"] = (
            f"{ex.events_not_kept} stream events before the last are counted, not kept"
        )
    if ex.error is not None:
        response["_error"] = ex.error  # Chrome's own member for a failed request
    return response


def _entry(ex: Exchange) -> dict[str, Any]:
    elapsed = max(0.0, round(ex.elapsed_ms, 3))
    comment = f"#{ex.seq} {ex.purpose}"
    if ex.grpc:
        comment += f"; gRPC call ({ex.status_text}): bodies are ProtoJSON, not the wire bytes"
    if ex.truncated:
        comment += "; the body was cut at the size limit"
    trace = trace_of(ex.request_headers) if ex.span_id else None
    if trace is not None:
        comment += f"; W3C trace {trace} span {ex.span_id}"
    # HAR 1.2 allows custom members that start with "_": the ids a log search needs.
    ids = {"_traceId": trace, "_spanId": ex.span_id} if trace is not None else {}
    return {
        "startedDateTime": _started(ex),
        "time": elapsed,
        "request": _request(ex),
        "response": _response(ex),
        "cache": {},
        # The recorder times the whole exchange: all of it counts as waiting.
        "timings": {
            "blocked": _UNKNOWN,
            "dns": _UNKNOWN,
            "connect": _UNKNOWN,
            "ssl": _UNKNOWN,
            "send": 0,
            "wait": elapsed,
            "receive": 0,
        },
        "comment": comment,
        **ids,
        **_a2a_error(ex),
    }


def _a2a_error(ex: Exchange) -> dict[str, Any]:
    """A custom member (HAR allows ``_`` names) with the A2A error the answer carries."""
    error = a2a_error_of(ex)
    return {} if error is None else {"_a2a_error": error.to_json()}


def _exchanges(run: Run, number: int | None) -> list[Exchange]:
    """Every exchange of the session, or of its invocation numbered ``number``."""
    if number is None:
        return session_exchanges(run)
    [chosen] = pick_invocations(run, number)
    return list(chosen.run.exchanges)


def har_of_session(session: LoadedSession, number: int | None = None) -> dict[str, Any]:
    """The HAR 1.2 ``{"log": ...}`` of a session as saved (its secrets already redacted)."""
    run = session.run
    return {
        "log": {
            "version": "1.2",
            "creator": {"name": "sia-tui", "version": __version__},
            "entries": [_entry(ex) for ex in _exchanges(run, number)],
            "comment": f"{run.skill_id or '(no skill)'} at {run.target.location}",
        }
    }


def render_har(session: LoadedSession, filename: str = "", number: int | None = None) -> str:
    """The HAR text of a saved session (the signature of the ``report`` renderers; a HAR
    names no file, so ``filename`` is not used)."""
    del filename
    return json.dumps(har_of_session(session, number), indent=2, ensure_ascii=False) + "\n"


def har_of_run(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> str:
    """The HAR text of a live run, redacted by the very path that saves it as a session."""
    return render_har(as_saved(run, options, secret_values, secret_headers))
