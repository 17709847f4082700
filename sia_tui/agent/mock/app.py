"""The mock agent's HTTP side: every route answered from the recording (Starlette).

A request is matched by its key (``keys.py``) and answered with the recorded status,
headers and bytes: a sync result, an SSE stream, a poll, a cancel, an A2A error, an HTTP
status. What ended an answer live ends it here too: a timeout stalls until the client
gives up, a body our limit cut is cut again one byte past it. A request the session holds
no answer to gets an A2A error that lists what it holds, and ``on_unmatched`` hears it.
The mock follows no URL the session names (RULES SR7): it only answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from sia_tui.agent.a2a_errors import jsonrpc_error, request_id, rest_error
from sia_tui.agent.mock.card import rewrite_card
from sia_tui.agent.mock.keys import json_body
from sia_tui.agent.mock.push import PushDeliveries, Refused, live_push
from sia_tui.agent.mock.recorded import MAX_REQUEST_BYTES, Recording, is_card_path
from sia_tui.core.a2a.extended_card import PURPOSE as EXTENDED_CARD
from sia_tui.core.errors import (
    DeadlineExceeded,
    EncodingRefused,
    JsonInputError,
    RequestTimeout,
    ResponseTooLarge,
    SiaError,
)
from sia_tui.core.exchange import Exchange
from sia_tui.core.jsonkit.strictjson import loads
from sia_tui.core.session.recorded_ending import recorded_ending
from sia_tui.core.session.served import served_body, wire_headers

#: The most a mock waits for a recorded gap (``--timing recorded``): a session file is
#: someone else's input, and its durations are not limits.
MAX_GAP_SECONDS = 30.0
#: How long a stalled answer (a recorded timeout) waits at most for the client to go.
MAX_STALL_SECONDS = 600.0
#: JSON-RPC error of an unmatched request: A2A's UnsupportedOperationError.
NOT_RECORDED_CODE = -32004
#: JSON-RPC error of a webhook the mock may not deliver to: InvalidParams (a2a-sdk's
#: answer to an unusable push notification URL).
INVALID_PARAMS_CODE = -32602
_STALLS = (RequestTimeout, DeadlineExceeded)
#: The blank line that ends an SSE event (linear: no nested repetition).
_EVENT_END = re.compile(rb"\r?\n\r?\n")


@dataclass
class MockConfig:
    """How the mock serves a recording."""

    recording: Recording
    #: ``recorded``: wait each answer's recorded duration (stream events spread over it).
    timing: str = "fast"
    #: Refuse a request without the recorded credential headers (any value is accepted).
    require_auth: bool = False
    max_request_bytes: int = MAX_REQUEST_BYTES
    #: Told the text of each unmatched request's error (the CLI prints it on stderr).
    on_unmatched: Callable[[str], None] = lambda _text: None
    #: Set when the server stops, so a stalled answer ends.
    stopping: threading.Event = field(default_factory=threading.Event)
    #: ``host:port`` of the mock's gRPC side once it listens (the card points there).
    grpc_address: str | None = None
    #: Origins (``scheme://host:port``) besides loopback that recorded push deliveries may
    #: go to: ``mock --push-to``, the user's consent (``push.py``).
    push_to: frozenset[str] = frozenset()
    #: Told the text of each refused webhook (the CLI prints it on stderr).
    on_push_refused: Callable[[str], None] = lambda _text: None

    def deliveries(self) -> PushDeliveries:
        """A deliverer of recorded pushes for one serving loop (HTTP or gRPC)."""
        return PushDeliveries(
            timed=self.timing == "recorded", pause=lambda s: pause(s), max_gap=MAX_GAP_SECONDS
        )


class MockApp:
    """Answers each request from the recording."""

    def __init__(self, config: MockConfig, base_url: str) -> None:
        self.config, self.base_url = config, base_url
        self.recording = config.recording
        self.deliveries = config.deliveries()

    async def handle(self, request: Request) -> Response:
        """Any method, any path: the recorded answer, or an error naming what is held."""
        path = request.url.path
        try:
            body = await self._body(request)
        except ClientDisconnect:
            return Response(status_code=400)
        if body is None:
            return Response(b"request body too large", status_code=413)
        refused = self._refusal(request)
        if refused is not None:
            return refused
        key = self.recording.key(request.method, path, body, self.config.max_request_bytes)
        ex = self.recording.answer(key)
        if ex is None and request.method == "GET" and is_card_path(path):
            ex = self.recording.card
        if ex is None:
            return self._unmatched(str(key), body, request)
        push = live_push(
            self.recording.pushes,
            self.config.push_to,
            ex,
            json_body(body, self.config.max_request_bytes),
        )
        if isinstance(push, Refused):
            self.recording.give_back(key)  # this request got no recorded answer
            return self._push_refused(push, body, request)
        if push is not None:
            self.deliveries.start(*push)
        return await self._serve(ex, body, request)

    def _push_refused(self, refused: Refused, body: bytes, request: Request) -> Response:
        """A webhook the user did not allow: printed, and answered as an agent answers an
        unusable push config (InvalidParams; A2A 1.0 section 13.2)."""
        self.config.on_push_refused(refused.printed)
        codes = (INVALID_PARAMS_CODE, 400, "INVALID_ARGUMENT")
        return self._error(body, request, codes, refused.answer, "INVALID_PARAMS")

    async def _body(self, request: Request) -> bytes | None:
        limit, size, chunks = self.config.max_request_bytes, 0, []
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    def _refusal(self, request: Request) -> Response | None:
        """``--require-auth``: a request without the recorded credential headers is refused
        as the agent refused one (its recorded 401/403), else with a plain 401."""
        wanted = self.recording.credential_headers
        if not self.config.require_auth or not wanted:
            return None
        if all(request.headers.get(name) for name in wanted):
            return None
        recorded = self.recording.refusal
        if recorded is not None:
            return Response(
                served_body(recorded), recorded.status or 401, headers=_headers(recorded)
            )
        text = "sia-tui mock: this request carries no credentials (--require-auth)"
        return Response(
            json.dumps({"error": {"code": 401, "status": "UNAUTHENTICATED", "message": text}}),
            401,
            media_type="application/json",
            headers={"WWW-Authenticate": "Bearer"},
        )

    def _unmatched(self, asked: str, body: bytes, request: Request) -> Response:
        text = (
            f"sia-tui mock: the session holds no answer to {asked}; it holds:\n"
            f"{self.recording.holdings()}"
        )
        self.config.on_unmatched(text)
        return self._error(
            body, request, (NOT_RECORDED_CODE, 404, "NOT_FOUND"), text, "NOT_RECORDED"
        )

    def _error(
        self, body: bytes, request: Request, codes: tuple[int, int, str], text: str, reason: str
    ) -> Response:
        """An A2A error in the request's binding: JSON-RPC (``codes[0]``, the client's id)
        or HTTP+JSON (``codes[1]`` and ``codes[2]``, a ``google.rpc.Status``)."""
        parsed = _json(body, self.config.max_request_bytes)
        if isinstance(parsed, dict) and parsed.get("jsonrpc") is not None:
            rid = request_id(parsed)
            error = jsonrpc_error(
                None if rid is not None and not isinstance(rid, str | int) else rid,
                codes[0],
                text,
                reason,
            )
            return Response(json.dumps(error, ensure_ascii=False), media_type="application/json")
        error = rest_error(codes[1], codes[2], text, reason)
        return Response(
            json.dumps(error, ensure_ascii=False), codes[1], media_type=wire_type(request)
        )

    async def _serve(self, ex: Exchange, body: bytes, request: Request) -> Response:
        ending = recorded_ending(ex)
        if ex.status is None:  # no answer came: a timeout stalls, anything else fails
            if isinstance(ending, _STALLS):
                await self._stall(request)
            return Response(
                f"sia-tui mock: the recorded request got no answer ({ex.error or 'error'})",
                502,
            )
        content = served_body(ex)
        if ex.purpose in ("agent card", EXTENDED_CARD):  # both cards point at the mock
            extended = ex.purpose == EXTENDED_CARD
            content = rewrite_card(
                content, self.base_url, self.config.grpc_address, extended=extended
            )
        content = _same_id(content, ex.request_body, body, self.config.max_request_bytes)
        if isinstance(ending, ResponseTooLarge):
            content += b"\n"  # one byte past the limit that cut it: cut again, not invented
        headers = _headers(ex, keep_encoding=isinstance(ending, EncodingRefused))
        stream = _is_stream(ex)
        if not stream and not isinstance(ending, _STALLS) and self.config.timing == "fast":
            return Response(content, ex.status, headers=headers)
        return StreamingResponse(
            self._chunks(ex, content, request, stall=isinstance(ending, _STALLS)),
            ex.status,
            headers=headers,
        )

    async def _chunks(
        self, ex: Exchange, content: bytes, request: Request, *, stall: bool
    ) -> AsyncIterator[bytes]:
        """The body event by event (SSE) or whole, each after its recorded wait with
        ``--timing recorded``; then, for a recorded timeout, nothing more."""
        pieces = _events(content) if _is_stream(ex) else [content]
        timed = self.config.timing == "recorded"
        waits = recorded_waits(ex, len(pieces)) if timed else [0.0] * len(pieces)
        for piece, wait in zip(pieces, waits, strict=True):
            if wait:
                await pause(wait)
            yield piece
        if stall:
            await self._stall(request)

    async def _stall(self, request: Request) -> None:
        """Wait until the client gives up (its timeout) or the mock stops."""
        loop = asyncio.get_running_loop()
        until = loop.time() + MAX_STALL_SECONDS
        while loop.time() < until and not self.config.stopping.is_set():
            if await request.is_disconnected():
                return
            await asyncio.sleep(0.05)


def stalls(ex: Exchange) -> bool:
    """True when the recorded exchange ended in a timeout: the mock then waits too."""
    return isinstance(recorded_ending(ex), _STALLS)


def recorded_waits(ex: Exchange, count: int) -> list[float]:
    """The wait before each of ``count`` pieces of a recorded answer (``--timing
    recorded``): the gaps between its events' recorded arrivals when the session kept one
    per piece (``event_offsets_ms``), else its duration spread evenly (older sessions).
    No answer waits more than ``MAX_GAP_SECONDS`` in all."""
    if count <= 0:
        return []
    offsets = ex.event_offsets_ms
    if len(offsets) == count:
        times = [min(max(ms, 0.0) / 1000.0, MAX_GAP_SECONDS) for ms in offsets]
        return [max(b - a, 0.0) for a, b in zip([0.0, *times], times, strict=False)]
    return [min(ex.elapsed_ms / 1000.0, MAX_GAP_SECONDS) / count] * count


async def pause(seconds: float) -> None:
    """Wait a recorded gap (its own name, so a test can count the waits)."""
    await asyncio.sleep(seconds)


def wire_type(request: Request) -> str:
    """The content type an HTTP+JSON error is written in."""
    return (
        "application/a2a+json"
        if "a2a+json" in request.headers.get("accept", "")
        else ("application/json")
    )


def _headers(ex: Exchange, *, keep_encoding: bool = False) -> dict[str, str]:
    """The recorded response headers (without transfer headers; Starlette sets its own
    length). A refused encoding keeps its Content-Encoding, which is what was refused."""
    headers: dict[str, str] = {}
    for name, value in wire_headers(ex):
        headers[name.decode("latin-1")] = value.decode("latin-1")
    if keep_encoding and (coding := ex.header("content-encoding")) is not None:
        headers["content-encoding"] = coding
    return headers


def _is_stream(ex: Exchange) -> bool:
    kind = (ex.header("content-type") or "").lower()
    return kind.startswith("text/event-stream") or (not ex.response_body and bool(ex.events))


def _events(content: bytes) -> list[bytes]:
    """An SSE body cut after each event's blank line (the last piece keeps any rest)."""
    pieces, start = [], 0
    for blank in _EVENT_END.finditer(content):
        pieces.append(content[start : blank.end()])
        start = blank.end()
    if start < len(content):
        pieces.append(content[start:])
    return pieces


def _json(body: bytes, max_bytes: int) -> Any:
    try:
        return loads(body, max_bytes=max_bytes) if body else None
    except (JsonInputError, SiaError, ValueError, RecursionError):
        return None


def _same_id(content: bytes, recorded_request: bytes, request: bytes, max_bytes: int) -> bytes:
    """A JSON-RPC answer carries the id the client sent now: where the recorded answer
    echoed the recorded request's id, the new id is written in its place. Anything else
    (an agent that answered with a wrong id) is served as recorded."""
    asked, recorded = _json(request, max_bytes), _json(recorded_request, max_bytes)
    if not isinstance(asked, dict) or not isinstance(recorded, dict):
        return content
    new, old = asked.get("id"), recorded.get("id")
    if new == old or "id" not in asked:
        return content
    answer = _json(content, max_bytes)
    if isinstance(answer, dict) and answer.get("id") == old:
        return json.dumps({**answer, "id": new}, ensure_ascii=False).encode("utf-8")
    return content


def create_mock_app(config: MockConfig, base_url: str) -> Starlette:
    """The mock as an ASGI app for ``base_url`` (where it listens: the card points there)."""
    mock = MockApp(config, base_url)
    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    routes = [
        Route("/", mock.handle, methods=methods),
        Route("/{path:path}", mock.handle, methods=methods),
    ]
    app = Starlette(routes=routes)
    app.state.mock = mock
    return app
