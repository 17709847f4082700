"""`sia-tui check` against each hostile attack the tests run: seconds and peak memory per
attack, and the ratio of the seconds to the run's 2 s deadline.

Run on demand: ``uv run python benchmarks/hostile_runs.py``. The tests assert how each run
ends and its memory; how long it takes is a figure of this machine and its load, so it is
printed here (a ratio near 1 for the slow attacks: the deadline ends them; well under 1 for
the content attacks: a limit ends them first). Asserts nothing.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.hostile.measure import DEADLINE, run_measured, serving
from tests.hostile.measure import check_args as check_arguments
from tests.hostile.test_check_attacks import CASES


def main() -> None:
    print(f"{'attack':26} {'seconds':>8} {'/ deadline':>10} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for case in CASES:
            with serving(case.attack) as server:
                args = check_arguments(server.url, Path(folder), *case.flags)
                measured = run_measured(args)
            seconds, peak = measured.seconds, measured.peak_rss_mb
            print(f"{case.attack:26} {seconds:8.2f} {seconds / DEADLINE:10.2f} {peak:8.0f}")


if __name__ == "__main__":
    main()
