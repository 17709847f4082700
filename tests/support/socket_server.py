"""A tiny misbehaving HTTP server on 127.0.0.1 for the tests where real sockets matter."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from sia_tui.agent.threaded import serve_in_thread

#: Longest any handler stalls; every test's timeout is far below it.
STALL = 3.0

TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
DONE = {
    "statusUpdate": {
        "taskId": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_COMPLETED"},
    }
}


async def slow_headers(request: Request) -> Response:
    await asyncio.sleep(STALL)
    return Response(b"{}", media_type="application/json")


async def slow_body(request: Request) -> Response:
    async def body() -> AsyncIterator[bytes]:
        yield b'{"id": "t-1", '
        await asyncio.sleep(STALL)
        yield b'"status": {}}'

    return StreamingResponse(body(), media_type="application/json")


async def drip(request: Request) -> Response:
    async def body() -> AsyncIterator[bytes]:
        yield b"["
        for _ in range(int(STALL / 0.05)):
            await asyncio.sleep(0.05)
            yield b" "

    return StreamingResponse(body(), media_type="application/json")


async def endless(request: Request) -> Response:
    async def body() -> AsyncIterator[bytes]:
        for _ in range(10_000):
            yield b"[" + b"0," * 32_000 + b"0]"
            await asyncio.sleep(0)

    return StreamingResponse(body(), media_type="application/json")


async def stream(request: Request) -> Response:
    """Events cut mid-line across writes, a ping, then a final event and a stall."""
    wire = b": ping\r\n\r\n" + b"".join(
        b"data: " + json.dumps(p).encode() + b"\r\n\r\n" for p in ({"task": TASK}, DONE)
    )

    async def body() -> AsyncIterator[bytes]:
        for start in range(0, len(wire), 7):
            yield wire[start : start + 7]
            await asyncio.sleep(0)
        await asyncio.sleep(STALL)  # the client must not wait for this
        yield b'data: {"never": true}\r\n\r\n'

    return StreamingResponse(body(), media_type="text/event-stream")


async def stream_stall(request: Request) -> Response:
    async def body() -> AsyncIterator[bytes]:
        yield b"data: " + json.dumps({"task": TASK}).encode() + b"\n\n"
        await asyncio.sleep(STALL)

    return StreamingResponse(body(), media_type="text/event-stream")


ROUTES = [
    Route("/slow-headers.json", slow_headers),
    Route("/slow-body.json", slow_body),
    Route("/drip.json", drip),
    Route("/endless.json", endless),
    Route("/live/message:stream", stream, methods=["POST"]),
    Route("/stall/message:stream", stream_stall, methods=["POST"]),
]


@contextmanager
def serving() -> Iterator[str]:
    """Serve the routes on an ephemeral 127.0.0.1 port; yield the base URL; stop after."""
    server = serve_in_thread(lambda _url: Starlette(routes=ROUTES), name="misbehaving-server")
    try:
        yield server.url
    finally:
        server.stop()
