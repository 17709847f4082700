"""A raw asyncio HTTP/1.1 server on 127.0.0.1 that gives attacks byte-level control.

uvicorn and Starlette normalise what goes on the wire (framing, header order, encodings);
a hostile agent needs to send exactly the bytes it wants, as slowly as it wants. Each
connection carries one request and is closed after the answer (``Connection: close``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

#: Longest request head or body the server reads (the client under test is not hostile).
MAX_REQUEST_BYTES = 1024 * 1024
START_TIMEOUT = 10.0


@dataclass(frozen=True)
class Request:
    """One request as received: method, path, lower-cased headers and body."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def stage(self) -> str:
        """Which part of the protocol this request is: card, describe, invoke, stream..."""
        if self.method == "GET":
            return "card"
        envelope = self.json()
        method = envelope.get("method") if isinstance(envelope, dict) else None
        if method == "SendMessage":
            return "describe" if self.skill == "describe_skill" else "invoke"
        return {
            "SendStreamingMessage": "stream",
            "GetTask": "get_task",
            "CancelTask": "cancel",
        }.get(str(method), "unknown")

    @property
    def skill(self) -> str | None:
        """The skill id of a SendMessage/SendStreamingMessage data part."""
        try:
            return str(self.json()["params"]["message"]["parts"][0]["data"]["skill"])
        except (KeyError, IndexError, TypeError):
            return None

    @property
    def rpc_id(self) -> Any:
        envelope = self.json()
        return envelope.get("id") if isinstance(envelope, dict) else None


class Reply:
    """Writes an answer on the connection: whole JSON bodies, or head and bytes by hand."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def head(self, status: int = 200, headers: list[tuple[str, str]] | None = None) -> None:
        lines = [f"HTTP/1.1 {status} X".encode()]
        for name, value in [*(headers or []), ("Connection", "close")]:
            lines.append(f"{name}: {value}".encode("latin-1"))
        await self.write(b"\r\n".join(lines) + b"\r\n\r\n")

    async def write(self, data: bytes) -> None:
        self._writer.write(data)
        await self._writer.drain()

    async def chunk(self, data: bytes) -> None:
        """One chunk of a ``Transfer-Encoding: chunked`` body."""
        await self.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    async def body(
        self,
        data: bytes,
        *,
        status: int = 200,
        content_type: str = "application/json",
        headers: list[tuple[str, str]] | None = None,
    ) -> None:
        await self.head(
            status,
            [
                ("Content-Type", content_type),
                ("Content-Length", str(len(data))),
                *(headers or []),
            ],
        )
        await self.write(data)

    async def json(self, payload: Any, **kwargs: Any) -> None:
        await self.body(json.dumps(payload).encode(), **kwargs)

    async def rpc(self, request: Request, result: Any) -> None:
        """A JSON-RPC success envelope answering ``request``."""
        await self.json({"jsonrpc": "2.0", "id": request.rpc_id, "result": result})


Handler = Callable[[Request, Reply], Awaitable[None]]


async def _read_request(reader: asyncio.StreamReader) -> Request | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        return None
    request_line, *header_lines = head.decode("latin-1").split("\r\n")
    method, path, _ = request_line.split(" ", 2)
    headers = {}
    for line in header_lines:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return Request(method, path, headers, body)


class HostileServer:
    """Serves ``make_handler(base_url)`` on an ephemeral 127.0.0.1 port in a background thread."""

    def __init__(self, make_handler: Callable[[str], Handler]) -> None:
        self._make_handler = make_handler
        self._handler: Handler | None = None
        self._loop = asyncio.new_event_loop()
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.base_events.Server | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="hostile-agent", daemon=True)
        self.url = ""
        #: Every request received, in order (tests read it after the run).
        self.requests: list[Request] = []

    def __enter__(self) -> HostileServer:
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT):
            raise RuntimeError("hostile agent did not start")
        return self

    def __exit__(self, *_exc: object) -> None:
        self._loop.call_soon_threadsafe(self._shutdown)
        self._thread.join(START_TIMEOUT)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._connection, "127.0.0.1", 0, limit=MAX_REQUEST_BYTES)
        )
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self._handler = self._make_handler(self.url)
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.transport.abort()  # unsent bytes of an endless answer are dropped
        for task in self._tasks:
            task.cancel()

        async def drain() -> None:
            await asyncio.gather(*self._tasks, return_exceptions=True)
            self._loop.stop()

        self._loop.create_task(drain())

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            request = await _read_request(reader)
            if request is not None and self._handler is not None:
                self.requests.append(request)
                await self._handler(request, Reply(writer))
        except (ConnectionError, asyncio.CancelledError):
            pass  # the client gave up (its limit worked) or the server is stopping
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
