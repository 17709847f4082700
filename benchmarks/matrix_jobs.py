"""How much `--jobs` buys: one plugfest matrix (four reference agents, three skills, both
bindings, three modes: 72 verdict cells) with one run in flight, then with eight.

Run: ``uv run python benchmarks/matrix_jobs.py``. Prints each time and the ratio.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import Fault
from sia_tui.agent.serving import start_agent
from sia_tui.core.matrix import MatrixRunner, load_plugfest

FAULTS = {"a": None, "b": Fault.DIGEST_CARD, "c": Fault.OUTPUT_INVALID, "d": Fault.V03}
SKILLS = ("evaluate_resource_condition", "check_link_capacity", "measure_available_bandwidth")
ROUNDS = 3


def main() -> None:
    """Interleave jobs=1 and jobs=8 runs; print the medians and their ratio."""
    agents = {
        name: start_agent(AgentConfig(fault=f, step_delay=0.05)) for name, f in FAULTS.items()
    }
    try:
        with tempfile.TemporaryDirectory() as folder:
            lines = ['name = "bench"'] + [f'[[skill]]\nid = "{s}"' for s in SKILLS]
            for name, agent in agents.items():
                lines += ["[[agent]]", f'name = "{name}"', f'card = "{agent.url}"']
            path = Path(folder) / "PLUGFEST.toml"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            plugfest = load_plugfest(path)
            times: dict[int, list[float]] = {1: [], 8: []}
            for _ in range(ROUNDS):
                for jobs in times:
                    started = time.monotonic()
                    matrix = asyncio.run(MatrixRunner(plugfest, jobs=jobs).run())
                    times[jobs].append(time.monotonic() - started)
            cells = sum(matrix.counts().values())
            one, eight = (statistics.median(times[j]) for j in (1, 8))
            print(f"{cells} verdict cells, {len(matrix.rows)} rows, median of {ROUNDS}")
            print(f"jobs=1: {one:.2f} s   jobs=8: {eight:.2f} s   ratio {one / eight:.1f}x")
    finally:
        for agent in agents.values():
            agent.stop()


if __name__ == "__main__":
    main()
