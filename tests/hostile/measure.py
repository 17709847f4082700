"""Run ``sia-tui check`` against an attack in a child process; read its memory and report.

Tests assert what a run reported and its peak memory, never its wall time (a loaded machine
stretches that): the seconds are printed by ``benchmarks/hostile_runs.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.hostile.attacks import ATTACKS
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measured_child import MARKER
from tests.hostile.server import HostileServer

CHILD = Path(__file__).with_name("measured_child.py")
#: Peak resident memory every hostile run must stay under (500 MB).
PEAK_RSS_MB = 500
#: The overall deadline the hostile tests configure (small, so the suite stays fast).
DEADLINE = 2.0
#: Seconds after which a child is taken to hang and killed (far past any configured limit:
#: a hang, never a slow machine).
HANG_SECONDS = 60.0
#: Flags every hostile run shares: a short deadline, no cache, the machine-readable report.
#: The read timeout equals the deadline, so a slow attack is ended by the deadline even
#: when a loaded machine stretches a drip's pause.
FAST_FLAGS = ["--json", "--no-cache", "--timeout", str(DEADLINE), "--deadline", str(DEADLINE)]


@dataclass(frozen=True)
class Measured:
    """What one child run did."""

    exit: int
    seconds: float
    peak_rss_mb: float
    report: dict[str, Any]
    stderr: str

    def step(self, number: int) -> dict[str, Any]:
        step: dict[str, Any] = self.report["steps"][number - 1]
        return step

    @property
    def failed(self) -> dict[str, Any]:
        """The failing step of the report (the test fails if none failed)."""
        failed: list[dict[str, Any]] = [s for s in self.report["steps"] if s["status"] == "failed"]
        assert len(failed) == 1, f"expected one failed step, got {self.report['steps']}"
        return failed[0]


def run_measured(args: list[str], *, hang_after: float = HANG_SECONDS) -> Measured:
    """Run ``sia-tui ARGS`` in a child; a child still running after ``hang_after`` seconds is
    killed and fails the test."""
    try:
        done = subprocess.run(
            [sys.executable, str(CHILD), *args],
            capture_output=True,
            text=True,
            timeout=hang_after,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"sia-tui {' '.join(args)} hung ({hang_after:.0f} s)") from exc
    marker = [line for line in done.stderr.splitlines() if line.startswith(MARKER)]
    assert marker, f"the child crashed:\n{done.stderr[-3000:]}"
    measured = json.loads(marker[-1][len(MARKER) :])
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    report = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}
    return Measured(
        measured["exit"], measured["seconds"], measured["peak_rss_mb"], report, done.stderr
    )


@contextmanager
def serving(name: str) -> Iterator[HostileServer]:
    """The hostile agent running attack ``name`` on 127.0.0.1."""
    with HostileServer(ATTACKS[name].handler) as server:
        yield server


def check(name: str, tmp_path: Path, *extra: str) -> Measured:
    """``sia-tui check`` against attack ``name`` (see :func:`check_url`)."""
    with serving(name) as server:
        return check_url(server.url, tmp_path, *extra)


def check_args(url: str, tmp_path: Path, *extra: str) -> list[str]:
    """The ``sia-tui check URL`` arguments: the skill, its arguments, the fast flags."""
    path = tmp_path / "arguments.json"
    path.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    return ["check", url, "--skill", SKILL, "--args", str(path), *FAST_FLAGS, *extra]


def check_url(url: str, tmp_path: Path, *extra: str) -> Measured:
    """``sia-tui check URL`` with the fast flags and the skill's arguments; asserts it ended
    (no hang) under the peak memory bound."""
    measured = run_measured(check_args(url, tmp_path, *extra))
    assert measured.peak_rss_mb < PEAK_RSS_MB, f"{url}: peak RSS {measured.peak_rss_mb:.0f} MB"
    return measured
