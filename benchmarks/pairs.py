"""Interleaved-pair timing shared by the benchmark scripts (run on demand, never in CI).

The machine is shared, so a figure alone says little: each round times the baseline and
the candidate back to back (alternating which goes first), and the ratio of each pair is
what we report, as a median with its spread.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairs:
    """Seconds per round for the baseline and the candidate, in pairing order."""

    baseline: list[float]
    candidate: list[float]

    @property
    def ratios(self) -> list[float]:
        return [c / b for b, c in zip(self.baseline, self.candidate, strict=True)]

    def report(self, name: str, baseline_name: str, goal: float | None) -> str:
        """Median figures, the median ratio with quartiles and range, and the goal (none
        for a figure reported only to explain another)."""
        ratios = sorted(self.ratios)
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        ratio = statistics.median(ratios)
        verdict = (
            ""
            if goal is None
            else f"  goal <= {goal}x: " + ("meets" if ratio <= goal else "MISSES")
        )
        return (
            f"{name}: median {statistics.median(self.candidate) * 1000:.1f} ms\n"
            f"{baseline_name}: median {statistics.median(self.baseline) * 1000:.1f} ms\n"
            f"ratio: median {ratio:.2f}x  (quartiles {q1:.2f}-{q3:.2f}, "
            f"range {ratios[0]:.2f}-{ratios[-1]:.2f}, {len(ratios)} pairs){verdict}"
        )


def timed(func: Callable[[], object]) -> float:
    """Wall-clock seconds of one call."""
    started = time.perf_counter()
    func()
    return time.perf_counter() - started


def interleaved(
    baseline: Callable[[], object], candidate: Callable[[], object], rounds: int, warmup: int = 2
) -> Pairs:
    """Time ``rounds`` pairs, alternating which side runs first to cancel drift."""
    for _ in range(warmup):
        baseline()
        candidate()
    base: list[float] = []
    cand: list[float] = []
    for i in range(rounds):
        if i % 2:
            cand.append(timed(candidate))
            base.append(timed(baseline))
        else:
            base.append(timed(baseline))
            cand.append(timed(candidate))
    return Pairs(base, cand)


def bytecode_environment(pycache: str | None) -> dict[str, str]:
    """The subprocesses' environment: bytecode cached under ``pycache``, or never written."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = pycache
    return env


class Runner:
    """Runs commands to the end (output discarded; a failure stops the benchmark) and
    keeps each one's CPU seconds (user + system), which load on the machine skews less."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.cpu: dict[str, list[float]] = {}

    def __call__(self, name: str, argv: list[str]) -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        self.cpu.setdefault(name, []).append(used)

    def cpu_ratio(self, name: str, baseline: str) -> str:
        """Median CPU seconds of both and the median of their per-pair ratios."""
        ours, theirs = self.cpu[name][-len(self.cpu[baseline]) :], self.cpu[baseline]
        ratios = [c / b for c, b in zip(ours, theirs, strict=False) if b > 0]
        return (
            f"CPU time: median {statistics.median(ours) * 1000:.1f} ms vs "
            f"{statistics.median(theirs) * 1000:.1f} ms, ratio {statistics.median(ratios):.2f}x"
        )
