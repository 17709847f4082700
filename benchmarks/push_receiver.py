"""The loopback push receiver: deliveries per second, against a bare asyncio server.

Run on demand: ``uv run python benchmarks/push_receiver.py [DELIVERIES]``. Posts the same
StreamResponse (a status update, ~200 bytes, and a 64 KiB artifact update) with one httpx
client to the receiver (headers and body bounded, strict JSON, token and task checked,
recorded) and to a bare asyncio server that answers 200 after reading the same bytes. The
goal: a run's deliveries (a few dozen) cost nothing a user notices; the ratio shows what
checking each one adds to the HTTP round trip. Prints figures and ratios, asserts nothing.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import httpx

from sia_tui.core.a2a.push.receiver import TOKEN_HEADER, PushReceiver

STATUS = {
    "statusUpdate": {
        "taskId": "task-1",
        "contextId": "ctx",
        "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-12-03T10:00:00.000000Z"},
    }
}
ARTIFACT = {
    "artifactUpdate": {
        "taskId": "task-1",
        "artifact": {"artifactId": "a", "parts": [{"data": {"blob": "x" * 65536}}]},
    }
}


async def _bare(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    await reader.readexactly(length)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    await writer.drain()
    writer.close()


async def _post_all(url: str, body: bytes, count: int) -> float:
    headers = {TOKEN_HEADER: "token", "Content-Type": "application/json"}
    async with httpx.AsyncClient(trust_env=False) as client:
        started = time.perf_counter()
        for _ in range(count):
            await client.post(url, content=body, headers=headers)
        return time.perf_counter() - started


async def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    receiver = PushReceiver(token="token", max_body_bytes=2 * 1024 * 1024)
    url = await receiver.start()
    receiver.expect("task-1")
    bare = await asyncio.start_server(_bare, "127.0.0.1", 0)
    bare_url = f"http://127.0.0.1:{bare.sockets[0].getsockname()[1]}/a2a/push"
    try:
        for name, payload in (("status update", STATUS), ("64 KiB artifact", ARTIFACT)):
            body = json.dumps(payload).encode()
            await _post_all(url, body, 10)  # warm-up
            await _post_all(bare_url, body, 10)
            checked = await _post_all(url, body, count)
            plain = await _post_all(bare_url, body, count)
            print(
                f"{name} ({len(body)} B) x{count}: receiver {checked / count * 1e3:.2f} ms "
                f"each ({count / checked:.0f}/s), bare server {plain / count * 1e3:.2f} ms "
                f"each; ratio {checked / plain:.2f}x"
            )
        kept = len(receiver.deliveries)
        print(f"kept {kept} deliveries, {receiver.not_listed} counted past the limit")
    finally:
        await receiver.stop()
        bare.close()
        await bare.wait_closed()


if __name__ == "__main__":
    asyncio.run(main())
