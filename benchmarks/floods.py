"""Floods from a hostile agent: 10,000 and 100,000 warnings, advertisement repeats and
validation findings through the engine, and a backtracking pattern over 8,000 strings.

Run on demand: ``uv run python benchmarks/floods.py``. Prints seconds and the ratio for 10x
the entries: linear cost shows 10 or less (fixed costs), the quadratic code this replaced
showed ~100 (10,000 findings took 34 s). Asserts nothing.
"""

from __future__ import annotations

import asyncio
import time

import tests.hostile.attacks_content as attacks
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Target
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import serving

FLOODS = ("card-warnings-flood", "extension-flood", "findings-flood")
BIG = ClientOptions(max_response_bytes=64 * 1024 * 1024)


async def one_run(url: str) -> float:
    """Seconds for steps 1-11 against ``url``."""
    started = time.perf_counter()
    procedure = Procedure(Target(url, skill_id=SKILL), BIG)
    procedure.set_arguments(ARGUMENTS)
    await procedure.run_all()
    await procedure.aclose()
    return time.perf_counter() - started


def measure(name: str, size: int) -> float:
    attacks.FLOOD = size  # the flood edits read it when the agent is built
    with serving(name) as server:
        return asyncio.run(one_run(server.url))


def main() -> None:
    for name in FLOODS:
        small, big = measure(name, 10_000), measure(name, 100_000)
        print(f"{name:22} 10k {small:6.2f} s   100k {big:6.2f} s   ratio {big / small:5.1f}")
    print(f"{'backtracking-pattern':22} 8k strings {measure('backtracking-pattern', 0):6.2f} s")


if __name__ == "__main__":
    main()
