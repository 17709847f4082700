"""The probe column: ``sia-tui probe`` on a row's skill, within the cell's deadline.

The matrix never allows valid invocations of a skill whose document declares execute
authority (``sia-tui probe --allow-valid-invocations`` is for a person at the keyboard):
the probes that need them are skipped, with the reason, by the probe engine itself.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from sia_tui.core.engine.model import Target
from sia_tui.core.errors import SiaError
from sia_tui.core.matrix.closing import close_quietly
from sia_tui.core.matrix.plugfest import AgentEntry, Arguments
from sia_tui.core.probe.model import ProbeReport
from sia_tui.core.probe.runner import Prober
from sia_tui.core.probe.session import save_probe_session

if TYPE_CHECKING:
    import httpx


async def probe(
    target: Target,
    agent: AgentEntry,
    arguments: Arguments | None,
    *,
    deadline: float,
    transport: httpx.AsyncBaseTransport | None = None,
) -> tuple[ProbeReport, str]:
    """Learn the interface, send every probe; returns the report and why it was cut off."""
    given = arguments.value if arguments is not None and not arguments.example else None
    prober = Prober(target, agent.options, transport=transport, arguments=given)
    stopped = ""
    try:
        async with asyncio.timeout(deadline):
            await prober.learn()
            await prober.run(allow_valid_invocations=False)
    except TimeoutError:
        stopped = f"cut off at the deadline of {deadline:g} s per cell"
    finally:
        await close_quietly(prober.aclose())
    return prober.report, stopped


async def save_probe(report: ProbeReport, agent: AgentEntry, path: Path) -> str | None:
    """Save the probe run (learning run and probes) as a redacted session; None on failure."""
    try:
        await asyncio.to_thread(
            save_probe_session,
            report,
            agent.options,
            path,
            secret_values=agent.secret_values,
            secret_headers=agent.secret_headers,
        )
    except SiaError:
        return None
    return str(path)
