"""One browser session of `sia-tui web`: a websocket and the app process behind it.

textual-serve 1.1.3's ``handle_websocket`` is replaced (``SiaServe`` in server.py) by
:func:`run_session`, which differs in three ways, each a bound the token holder cannot lift:

- the terminal size, from the URL (``?width=&height=``) and from every ``resize`` message,
  is clamped to ``MAX_COLUMNS`` x ``MAX_ROWS``: a 20000x10000 terminal made one app process
  reach 1.85 GB;
- when the websocket closes, the app is asked to quit and, if it has not ended within
  ``QUIT_GRACE_SECONDS`` (busy, or stopped), it is killed: the session never outlives its
  socket (upstream waits for the app forever);
- a message that is not a JSON array of a known type is ignored, not a logged traceback.

It relies on ``AppService`` (public in textual-serve) and its ``_process`` (private: the
version is pinned exactly in pyproject.toml).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import Any, Final

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

#: Widest and tallest terminal a browser may ask for (a 4K screen at a small font is about
#: 600x200). Each cell costs the app memory on every frame.
MAX_COLUMNS: Final = 1000
MAX_ROWS: Final = 500
#: The size textual-serve starts with when the URL names none.
DEFAULT_SIZE: Final = (80, 24)
#: Seconds an app gets to quit after its websocket closed, before it is killed.
QUIT_GRACE_SECONDS: Final = 5.0


def clamped(value: Any, default: int, largest: int) -> int:
    """``value`` as a size between 1 and ``largest``; ``default`` when it is not a number."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return max(1, min(number, largest))


def terminal_size(values: Mapping[str, Any]) -> tuple[int, int]:
    """``(columns, rows)`` from ``{"width": .., "height": ..}`` (a query or a resize message),
    within ``MAX_COLUMNS`` x ``MAX_ROWS``."""
    return (
        clamped(values.get("width"), DEFAULT_SIZE[0], MAX_COLUMNS),
        clamped(values.get("height"), DEFAULT_SIZE[1], MAX_ROWS),
    )


async def run_session(
    request: web.Request, command: str, downloads: DownloadManager, *, debug: bool = False
) -> web.WebSocketResponse:
    """Serve one browser session: start ``command`` behind the websocket, pass messages
    on, and end the app with the socket."""
    websocket = web.WebSocketResponse(heartbeat=15)
    await websocket.prepare(request)

    async def close() -> None:
        await websocket.close()

    service = AppService(
        command,
        write_bytes=websocket.send_bytes,
        write_str=websocket.send_str,
        close=close,
        download_manager=downloads,
        debug=debug,
    )
    try:
        await service.start(*terminal_size(request.query))
        await _pass_messages(websocket, service)
    finally:
        await asyncio.shield(end_app(service))
        await websocket.close()
    return websocket


async def _pass_messages(websocket: web.WebSocketResponse, service: AppService) -> None:
    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            envelope = json.loads(message.data)
        except ValueError:
            continue
        if not isinstance(envelope, list) or not envelope:
            continue
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            await service.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            await service.set_terminal_size(*terminal_size(data))
        elif kind == "ping":
            await websocket.send_json(["pong", data])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()


async def end_app(service: AppService) -> None:
    """Ask the app to quit; kill it when it has not ended within the grace period."""
    process = service._process  # textual-serve 1.1.3: see the module docstring
    # Waited on, never cancelled: stop() awaits the task reading the app's output, which
    # swallows a cancellation, so a timeout around it would not end the wait.
    stopping = asyncio.ensure_future(service.stop())
    ending = [stopping] if process is None else [stopping, asyncio.ensure_future(process.wait())]
    await asyncio.wait(ending, timeout=QUIT_GRACE_SECONDS)
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
    # The app's output is closed now, so stop() ends; a grandchild holding it open cannot
    # keep the session.
    await asyncio.wait([stopping], timeout=QUIT_GRACE_SECONDS)
    if not stopping.done():
        stopping.cancel()
