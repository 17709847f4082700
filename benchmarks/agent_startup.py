"""Reference agent start-up and a full eleven-step check, measured on this machine.

Run on demand: ``uv run python benchmarks/agent_startup.py``. Prints figures, asserts nothing.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Target

ARGS = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"},
}
ROUNDS = 10


async def full_check(url: str) -> float:
    """Seconds for steps 1-11 against ``url`` (no cache)."""
    started = time.perf_counter()
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    procedure.set_arguments(ARGS)
    run = await procedure.run_all()
    await procedure.aclose()
    assert run.verdict.outcome == "passed"
    return time.perf_counter() - started


def main() -> None:
    """Print start-up and check timings with their median and spread."""
    starts, checks = [], []
    for _ in range(ROUNDS):
        began = time.perf_counter()
        agent = start_agent(AgentConfig())
        starts.append(time.perf_counter() - began)
        checks.append(asyncio.run(full_check(agent.url)))
        agent.stop()
    for name, values in (("agent start-up", starts), ("full 11-step check", checks)):
        print(
            f"{name:<20} median {statistics.median(values) * 1000:7.1f} ms   "
            f"min {min(values) * 1000:7.1f} ms   max {max(values) * 1000:7.1f} ms"
        )
    print(f"check / start-up ratio: {statistics.median(checks) / statistics.median(starts):.1f}x")


if __name__ == "__main__":
    main()
