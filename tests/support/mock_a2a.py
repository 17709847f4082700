"""Helpers for the A2A client tests: fixtures on disk, mock agents, SSE bodies."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import httpx

from sia_tui.core.a2a.views import Interface

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "a2a"

BASE = "http://agent.test"
JSONRPC_V1 = Interface(f"{BASE}/a2a/jsonrpc", "JSONRPC", "1.0")
REST_V1 = Interface(f"{BASE}/a2a/rest", "HTTP+JSON", "1.0")
JSONRPC_V03 = Interface(f"{BASE}/a2a/jsonrpc", "JSONRPC", "0.3")
REST_V03 = Interface(f"{BASE}/a2a/rest", "HTTP+JSON", "0.3")

Handler = Callable[[httpx.Request], httpx.Response]


def fixture(name: str) -> Any:
    """A transcript from tests/fixtures/a2a, parsed."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def sse_bytes(payloads: Iterable[Any], *, newline: str = "\r\n", event: str | None = None) -> bytes:
    """An SSE body with one ``data:`` line per payload (sse-starlette framing by default)."""
    out = []
    for payload in payloads:
        head = f"event: {event}{newline}" if event else ""
        out.append(f"{head}data: {json.dumps(payload)}{newline}{newline}")
    return "".join(out).encode()


async def chunked(data: bytes, size: int) -> AsyncIterator[bytes]:
    """Yield ``data`` in pieces of ``size`` bytes (events split across chunks)."""
    for start in range(0, len(data), size):
        yield data[start : start + size]


def json_response(
    payload: Any, status: int = 200, *, content_type: str = "application/json"
) -> httpx.Response:
    """A response whose body is exactly ``json.dumps(payload)``."""
    return httpx.Response(
        status, content=json.dumps(payload).encode(), headers={"content-type": content_type}
    )


class Recorder:
    """A MockTransport handler that remembers every request it answered."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.handler(request)

    def body(self, index: int = -1) -> Any:
        """The JSON body of a request the agent received."""
        return json.loads(self.requests[index].content)
