"""`sia-tui web` under a token holder who asks too much: a huge terminal, sessions that do
not end, malformed requests.

Run on demand: ``uv run python benchmarks/web_bounds.py``. Serves `sia-tui demo` on
127.0.0.1 in this process; for a websocket asking for 200x50 and for 20000x10000 cells it
prints the app process's peak memory after its first frames (the huge one reached 1.85 GB
before the cap; goal: no more than a capped 1000x500 terminal costs), then how long the app
lives after its websocket closes (goal: at most the 5 s grace; it could live on before),
and for 250 requests without a Host header or with two, the tracebacks logged (was 203;
goal 0). Asserts nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from urllib.parse import urlsplit

import aiohttp

from sia_tui.web.server import WebServer, start_web
from tests.support.processes import live_descendants, still_running

FRAMES_SECONDS = 8.0


def peak_mb(pid: int) -> float:
    """VmHWM of process ``pid``."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def session(server: WebServer, width: int, height: int) -> None:
    parts = urlsplit(server.url)
    url = server.url.replace("http", "ws") + f"ws?width={width}&height={height}"
    origin = {"Origin": f"{parts.scheme}://{parts.netloc}"}
    async with aiohttp.ClientSession() as client, client.ws_connect(url, headers=origin) as ws:
        ends = time.monotonic() + FRAMES_SECONDS
        while (left := ends - time.monotonic()) > 0:  # let it draw for a while
            try:
                await asyncio.wait_for(ws.receive(), left)
            except TimeoutError:
                break
        apps = live_descendants(os.getpid())
        peak = max((peak_mb(pid) for pid in apps), default=0.0)
    closed = time.monotonic()
    while still_running(apps, until_reaped=True) and time.monotonic() - closed < 60:
        await asyncio.sleep(0.05)
    lived = time.monotonic() - closed
    print(f"{width}x{height}: app peak {peak:5.0f} MB; it ended {lived:4.1f} s after its socket")


async def malformed(server: WebServer) -> None:
    port = urlsplit(server.url).port
    path = urlsplit(server.url).path
    tracebacks = 0

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            nonlocal tracebacks
            tracebacks += record.exc_info is not None

    counter = Count()
    logging.getLogger("aiohttp").addHandler(counter)
    started = time.monotonic()
    for index in range(250):
        hosts = f"Host: 127.0.0.1:{port}\r\n" * (2 if index % 2 else 0)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\n{hosts}Connection: close\r\n\r\n".encode())
        await reader.read()
        writer.close()
    logging.getLogger("aiohttp").removeHandler(counter)
    seconds = time.monotonic() - started
    print(f"250 requests without a Host or with two: {tracebacks} tracebacks, {seconds:.1f} s")


async def main() -> None:
    reports: list[str] = []
    server = await start_web("127.0.0.1", 0, ["demo"], report=reports.append)
    try:
        for width, height in ((200, 50), (20000, 10000)):
            await session(server, width, height)
        await malformed(server)
        print(f"refusals reported: {len(reports)} lines")
    finally:
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
