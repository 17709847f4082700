"""`sia-tui fuzz` against the reference agent's observe skills: 200 examples each.

Run on demand: ``uv run python benchmarks/fuzz_observe.py``. Starts the reference agent
(no step delay), then runs the fuzz engine with 200 examples, seed 1 and a rate bound high
enough not to pace (``--rate 1000``) on each observe skill that answers at once, and prints
the time of each (learning steps 1-6 included) and the cases sent. The goal is under 30 s
a skill. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import time

from sia_tui.agent import AgentConfig, start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.fuzz import Fuzzer, FuzzSettings
from sia_tui.core.run import Target

#: The observe skills that answer at once (check_link_capacity probes for seconds).
SKILLS = ("evaluate_resource_condition", "measure_available_bandwidth", "measure_link_capacity")
EXAMPLES = 200


async def fuzz_once(url: str, skill: str) -> tuple[float, int, str]:
    """Seconds, cases sent and the outcome of one fuzz run."""
    settings = FuzzSettings(examples=EXAMPLES, seed=1, rate=1000.0, max_time=600.0)
    fuzzer = Fuzzer(Target(url, skill_id=skill), ClientOptions(), settings)
    started = time.perf_counter()
    try:
        await fuzzer.learn()
        report = await fuzzer.run()
    finally:
        await fuzzer.aclose()
    return time.perf_counter() - started, len(report.cases), report.outcome.value


def main() -> None:
    agent = start_agent(AgentConfig(step_delay=0.0))
    try:
        for skill in SKILLS:
            seconds, cases, outcome = asyncio.run(fuzz_once(agent.url, skill))
            print(f"{skill}: {EXAMPLES} examples, {cases} cases sent, {outcome}, {seconds:.1f} s")
    finally:
        agent.stop()


if __name__ == "__main__":
    main()
