"""Running the probe engine in tests: one call from target to graded report."""

from __future__ import annotations

from typing import Any

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.prober import Prober
from sia_tui.core.probe.results import Grade, ProbeReport
from sia_tui.core.run.read_model import Target

SKILL = "evaluate_resource_condition"


async def probe(
    location: str,
    skill: str = SKILL,
    *,
    allow_valid: bool = False,
    transport: httpx.AsyncBaseTransport | None = None,
    options: ClientOptions | None = None,
    arguments: Any = None,
    binding: str | None = None,
) -> ProbeReport:
    """Learn the interface, then run every probe; the clients are closed afterwards."""
    prober = Prober(
        Target(location, skill_id=skill, binding=binding),
        options or ClientOptions(),
        transport=transport,
        arguments=arguments,
    )
    try:
        await prober.learn()
        return await prober.run(allow_valid_invocations=allow_valid)
    finally:
        await prober.aclose()


def grades(report: ProbeReport) -> dict[str, str]:
    """Probe id -> grade value, in the order the probes ran."""
    return {r.id: r.grade.value for r in report.results}


def failing(report: ProbeReport) -> set[str]:
    """The ids of the probes that failed."""
    return {r.id for r in report.results if r.grade is Grade.FAIL}
