"""What the A2A wire check costs a `sia-tui check` (goal: under 5%).

Run on demand: ``uv run python benchmarks/wire_checks.py [ROUNDS]``. The reference agent
serves JSON-RPC, HTTP+JSON and gRPC on 127.0.0.1 in this process. For each binding and
mode it times the whole ``sia-tui check ... --args example --save FILE`` command (a
subprocess, median of ROUNDS; its report includes the wire check), then, in a fresh
interpreter per saved session, what the wire check of that run costs:

- cold: the first ``run.wire`` of a process: importing core/wire, reading the shipped
  schema, compiling each kind's validator and checking every exchange (what one `check`
  pays);
- warm: the same exchanges checked again with validators compiled (what each further run
  of a TUI session or a matrix pays).

Prints the figures and the ratios to the whole command; asserts nothing but that the
check passes.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cli_startup import SIA_TUI

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent

GOAL = 0.05
SKILL = "evaluate_resource_condition"

#: Run in a fresh interpreter: the wire check of a saved run, cold then warm (seconds).
TIMED = """
import json, sys, time
from sia_tui.core.session import load_session
from sia_tui.core.wire import report

run = load_session(sys.argv[1]).run
start = time.perf_counter()
wire = run.answers.wire
cold = time.perf_counter() - start
warm = []
for _ in range(20):
    report._cache.clear()
    start = time.perf_counter()
    again = run.answers.wire
    warm.append(time.perf_counter() - start)
assert again.errors == wire.errors == 0, wire.lines()
print(json.dumps({"cold": cold, "warm": sorted(warm)[len(warm) // 2],
                  "exchanges": len(wire.verdicts)}))
"""


def main() -> None:
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    rounds = int(numbers[0]) if numbers else 7
    agent = start_agent(AgentConfig(grpc_port=0), quiet=True)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="sia-wire-") as tmp:
            for binding in ("jsonrpc", "http-json", "grpc"):
                for mode in ("sync", "stream"):
                    session = str(Path(tmp) / f"{binding}-{mode}.json")
                    flags = ["--binding", binding, "--mode", mode, "--save", session]
                    check = [*SIA_TUI, "check", agent.url, "--skill", SKILL, "--args", "example"]
                    check += flags
                    seconds = []
                    for _ in range(rounds):
                        start = time.perf_counter()
                        done = subprocess.run(check, capture_output=True, text=True)
                        seconds.append(time.perf_counter() - start)
                        assert done.returncode == 0, done.stdout + done.stderr
                        assert "0 errors, 0 warnings" in done.stdout, done.stdout
                    timed = subprocess.run(
                        [sys.executable, "-c", TIMED, session], capture_output=True, text=True
                    )
                    figures = json.loads(timed.stdout)
                    rows.append((binding, mode, statistics.median(seconds), figures))
    finally:
        agent.stop()
    print(f"wire check cost per `sia-tui check` (median of {rounds} runs; goal < {GOAL:.0%})")
    print(f"{'binding':<10} {'mode':<7} {'check':>9} {'wire cold':>10} {'wire warm':>10} "
          f"{'cold/check':>11} {'warm/check':>11}")  # fmt: skip
    worst = 0.0
    for binding, mode, check_s, f in rows:
        cold, warm = f["cold"] / check_s, f["warm"] / check_s
        worst = max(worst, cold)
        print(
            f"{binding:<10} {mode:<7} {check_s * 1000:>7.0f}ms {f['cold'] * 1000:>8.1f}ms "
            f"{f['warm'] * 1000:>8.2f}ms {cold:>10.2%} {warm:>10.3%}"
        )
    verdict = "meets" if worst < GOAL else "MISSES"
    print(f"worst cold ratio {worst:.2%} (goal < {GOAL:.0%}: {verdict})")


if __name__ == "__main__":
    main()
