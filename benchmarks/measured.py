"""A sia-tui command measured in its own process, and figures printed against a goal
(shared by the benchmark scripts; run on demand, never in CI)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

CHILD = Path(__file__).parents[1] / "tests" / "hostile" / "measured_child.py"
MARKER = "SIA-MEASURED "


@dataclass(frozen=True)
class Measured:
    """One command: exit status, wall seconds, peak RSS (this process image's VmHWM), and
    what it printed."""

    exit: int
    seconds: float
    peak_mb: float
    stdout: str
    stderr: str


def measure(args: list[str], *, timeout: float = 1800) -> Measured:
    """Run ``sia-tui ARGS`` in a child process and read its own time and peak memory."""
    done = subprocess.run(
        [sys.executable, str(CHILD), *args], capture_output=True, text=True, timeout=timeout
    )
    figures = json.loads(done.stderr.rsplit(MARKER, 1)[1])
    return Measured(
        figures["exit"], figures["seconds"], figures["peak_rss_mb"], done.stdout, done.stderr
    )


def against(value: float, goal: float, unit: str) -> str:
    """``2.7 s (goal < 3 s: 0.90 of it, meets)``."""
    verdict = "meets" if value < goal else "MISSES"
    return f"{value:.1f} {unit} (goal < {goal:g} {unit}: {value / goal:.2f} of it, {verdict})"
