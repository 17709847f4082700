"""The streaming skill cancelled after its first record: what a run keeps of it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Target

#: The reference agent's long-running skill streams the record ``probe-1`` first.
LINK_CHECK = {"link_id": "link-7", "required_mbps": 400}


async def stream_until_a_record(
    url: str,
    interrupt: Callable[[Procedure], Awaitable[object]],
    transport: httpx.AsyncBaseTransport | None = None,
) -> Run:
    """check_link_capacity in stream mode; once the record ``probe-1`` has arrived,
    ``interrupt`` (the client's cancel, the agent going away), then the run as it ends
    (``transport``: the client's, to shape when answers arrive)."""
    target = Target(url, skill_id="check_link_capacity", mode="stream")
    procedure = Procedure(target, ClientOptions(), transport=transport)
    procedure.set_arguments(LINK_CHECK)
    try:
        await procedure.run_until(8)
        receiving = asyncio.ensure_future(procedure.run_all())
        run = procedure.run
        for _ in range(3000):  # the agent sends it after step_delay, then waits twice that
            if any(event.artifact is not None for event in run.stream_events):
                break
            await asyncio.sleep(0.01)
        await interrupt(procedure)
        return await receiving
    finally:
        await procedure.aclose()
