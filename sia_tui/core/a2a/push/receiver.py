"""A loopback webhook receiver for A2A push notifications: bounded, timed, token-checked.

One receiver serves one run on ``127.0.0.1`` and an ephemeral port. Each POST is read with
bounded headers and body within a time limit, parsed strictly, checked against the run's
token (``X-A2A-Notification-Token``, as a2a-sdk 1.3.0 sends it) and task, and recorded as a
``Delivery``. Nothing a delivery names is ever fetched (RULES SR7): it is only recorded.

Any local process can reach a loopback port, so a delivery without the run's token is
refused and kept apart (``refused``, a few kept, all counted): only the agent's own
deliveries fill ``deliveries`` and can settle the run.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sia_tui.core import limits
from sia_tui.core.a2a.objects import parse_stream_event
from sia_tui.core.errors import SiaError
from sia_tui.core.jsonkit.strictjson import loads as load_json

#: The header a2a-sdk's push sender (and the 0.3 specification's example) puts the token in.
TOKEN_HEADER = "x-a2a-notification-token"
#: The path the receiver answers on; anything else is 404 and not recorded.
PATH = "/a2a/push"


@dataclass
class Delivery:
    """One push delivery as received: what it says, and whether it was the run's own."""

    #: 1, 2, 3... in arrival order, counted apart for the run's own and refused ones.
    number: int
    #: When it arrived (ISO 8601 UTC), and seconds since the receiver started.
    received_at: str
    offset_seconds: float
    #: Body size in bytes, as sent (a body over the limit is not read).
    size: int
    #: The X-A2A-Notification-Token header matched the run's token.
    token_ok: bool
    #: The task id in the body is the run's task (False when the body names none).
    task_id_ok: bool
    #: "task", "status", "artifact", "message", or "unreadable".
    kind: str = "unreadable"
    task_id: str | None = None
    task_state: str | None = None
    #: Why the delivery could not be read (too large, not JSON...), else None.
    problem: str | None = None
    #: The body text as received, its first ``MAX_PUSH_BODY_KEPT`` bytes ("" when not read).
    body: str = ""
    #: The body was longer than what is kept.
    body_cut: bool = False


def new_token() -> str:
    """A per-run random token the agent must echo in every delivery."""
    return secrets.token_urlsafe(24)


def _event_task_id(payload: Any) -> str | None:
    """The task id a StreamResponse (1.0 wrapper) or 0.3 Task/event names."""
    if not isinstance(payload, dict):
        return None
    for wrapper in ("statusUpdate", "artifactUpdate"):
        inner = payload.get(wrapper)
        if isinstance(inner, dict) and isinstance(inner.get("taskId"), str):
            return str(inner["taskId"])
    task = payload.get("task")
    if isinstance(task, dict) and isinstance(task.get("id"), str):
        return str(task["id"])
    if isinstance(payload.get("taskId"), str):  # 0.3 events and messages
        return str(payload["taskId"])
    if payload.get("kind") == "task" and isinstance(payload.get("id"), str):
        return str(payload["id"])  # 0.3: the body is the Task itself
    message = payload.get("message")
    if isinstance(message, dict) and isinstance(message.get("taskId"), str):
        return str(message["taskId"])
    return None


class PushReceiver:
    """Records deliveries for one run; ``start()`` to listen, ``stop()`` when it ends."""

    def __init__(
        self,
        *,
        token: str,
        max_body_bytes: int,
        max_depth: int = limits.MAX_JSON_DEPTH,
        on_delivery: Callable[[Delivery], None] | None = None,
    ) -> None:
        self._token = token
        self._max_body = max_body_bytes
        self._max_depth = max_depth
        self._expected_task: str | None = None
        self._on_delivery = on_delivery
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()
        self._slots = asyncio.Semaphore(limits.MAX_PUSH_CONNECTIONS)
        self._started = time.monotonic()
        self._arrived = asyncio.Event()
        #: Deliveries that carried the run's token, in arrival order, at most
        #: ``MAX_PUSH_DELIVERIES``.
        self.deliveries: list[Delivery] = []
        #: Token-checked deliveries received past the limit: counted, not kept.
        self.not_listed = 0
        #: Refused deliveries (no token, or the wrong one): the first
        #: ``MAX_PUSH_REFUSED_KEPT``, and how many arrived in all.
        self.refused: list[Delivery] = []
        self.refused_count = 0
        #: ``http://127.0.0.1:PORT/a2a/push`` once started.
        self.url = ""

    async def start(self) -> str:
        """Listen on 127.0.0.1 and an ephemeral port; the URL to register."""
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", 0, limit=limits.MAX_PUSH_HEADER_BYTES
        )
        port = self._server.sockets[0].getsockname()[1]
        self._started = time.monotonic()
        self.url = f"http://127.0.0.1:{port}{PATH}"
        return self.url

    async def stop(self) -> None:
        """Stop listening and end every open connection's handler (safe to call twice)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            for writer in list(self._open):  # a slow sender does not hold the stop
                writer.close()
            # A connection still waiting for a slot or its headers is ended here, not left
            # for the event loop's teardown to cancel (see ``_serve``).
            handlers = list(self._handlers)
            for task in handlers:
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)
            await server.wait_closed()

    def expect(self, task_id: str) -> None:
        """The run's task: deliveries before and after are checked against it (a push may
        arrive before the send's answer names the task)."""
        self._expected_task = task_id
        for delivery in (*self.deliveries, *self.refused):
            delivery.task_id_ok = delivery.task_id == task_id

    async def wait_for(self, done: Callable[[Delivery], bool], timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a delivery ``done`` accepts (True if one came)."""
        deadline = time.monotonic() + timeout
        while not any(done(d) for d in self.deliveries):
            left = deadline - time.monotonic()
            if left <= 0 or self._server is None:
                return False
            self._arrived.clear()
            try:
                async with asyncio.timeout(left):
                    await self._arrived.wait()
            except TimeoutError:
                return any(done(d) for d in self.deliveries)
        return True

    # -- one connection ----------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        self._open.add(writer)
        try:
            await self._answer(reader, writer)
        except asyncio.CancelledError:
            # The run ended (``stop``, or the event loop's teardown) while the connection was
            # open: it is dropped without an answer. The handler ends normally rather than
            # cancelled: Python 3.11's stream callback calls ``exception()`` on a cancelled
            # handler task and logs a traceback for each (300 held connections printed 302).
            pass
        finally:
            self._open.discard(writer)
            writer.close()
            if task is not None:
                self._handlers.discard(task)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            # The time limit covers the wait for a slot too: a flood of connections ends.
            async with asyncio.timeout(limits.PUSH_READ_SECONDS), self._slots:
                status = await self._handle(reader)
        except (asyncio.LimitOverrunError, ValueError):  # headers over the reader's limit
            status = 431
        except (TimeoutError, asyncio.IncompleteReadError, OSError):
            status = 408
        try:
            writer.write(
                f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
                "Content-Type: application/json\r\nContent-Length: 2\r\n"
                "Connection: close\r\n\r\n{}".encode()
            )
            await writer.drain()
        except OSError:
            pass

    async def _handle(self, reader: asyncio.StreamReader) -> int:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, _, rest = lines[0].partition(" ")
        path = rest.partition(" ")[0]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        if path.partition("?")[0] != PATH:
            return 404
        if method != "POST":
            return 405
        if "chunked" in headers.get("transfer-encoding", "").lower():
            return 411  # a length up front, so the limit is known before reading
        declared = headers.get("content-length", "")
        if not declared.isdigit():
            return 411
        size = int(declared)
        token_ok = hmac.compare_digest(
            headers.get(TOKEN_HEADER, "").encode("utf-8", "replace"), self._token.encode()
        )
        if size > self._max_body:
            self._record(size, token_ok, problem=f"body of {size} bytes over the limit")
            return 413
        body = await reader.readexactly(size)
        self._record(size, token_ok, body=body)
        return 200 if token_ok else 401

    def _record(
        self, size: int, token_ok: bool, *, body: bytes | None = None, problem: str | None = None
    ) -> None:
        if token_ok:
            kept, number = self.deliveries, len(self.deliveries) + 1
            if number > limits.MAX_PUSH_DELIVERIES:
                self.not_listed += 1
                return
        else:
            # Refused (no token, or the wrong one): any local process may post here. Kept
            # apart, so it can neither push the agent's deliveries out nor end the wait for
            # its final push; still read, as an agent that forgets the token is worth seeing.
            self.refused_count += 1
            kept, number = self.refused, self.refused_count
            if number > limits.MAX_PUSH_REFUSED_KEPT:
                return
        delivery = Delivery(
            number=number,
            received_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            offset_seconds=round(time.monotonic() - self._started, 3),
            size=size,
            token_ok=token_ok,
            task_id_ok=False,
            problem=problem,
        )
        if body is not None:
            text = body[: limits.MAX_PUSH_BODY_KEPT]
            delivery.body = text.decode("utf-8", "replace")
            delivery.body_cut = len(text) < len(body)
            self._read(delivery, body)
        kept.append(delivery)
        if token_ok:
            self._arrived.set()  # only the agent's own deliveries can settle the run
        if self._on_delivery is not None:
            self._on_delivery(delivery)

    def _read(self, delivery: Delivery, body: bytes) -> None:
        """Kind, task and state from the body (a StreamResponse, or a 0.3 Task)."""
        try:
            payload = load_json(
                body, source="push delivery", max_bytes=self._max_body, max_depth=self._max_depth
            )
            event = parse_stream_event(payload)
        except SiaError as exc:
            delivery.problem = str(exc)[:300]
            return
        delivery.kind = event.kind
        delivery.task_state = event.state
        delivery.task_id = _event_task_id(payload)
        expected = self._expected_task
        delivery.task_id_ok = expected is not None and delivery.task_id == expected


_REASONS = {
    200: "OK",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    408: "Request Timeout",
    411: "Length Required",
    413: "Content Too Large",
    431: "Request Header Fields Too Large",
}
