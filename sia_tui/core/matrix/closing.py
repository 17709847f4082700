"""Closing a run's clients without letting a hung or failing close stop the matrix."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

#: Seconds a close may take before the matrix moves on.
CLOSE_SECONDS = 5


async def close_quietly(closing: Awaitable[None]) -> None:
    """Await ``closing`` for at most CLOSE_SECONDS; the verdict is recorded already."""
    try:
        async with asyncio.timeout(CLOSE_SECONDS):
            await closing
    except (TimeoutError, Exception):  # noqa: BLE001 - nothing is left to judge
        pass
