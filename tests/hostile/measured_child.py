"""Run one sia-tui command, then report its own wall time and peak RSS on stderr.

Started by :func:`tests.hostile.measure.run_measured` as a separate process, so the peak
resident set size (``resource.getrusage``) belongs to this command alone.
"""

from __future__ import annotations

import json
import resource
import sys
import time

MARKER = "SIA-MEASURED "


def main() -> None:
    started = time.perf_counter()
    from sia_tui.cli import main as cli

    code = cli(sys.argv[1:])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    report = {
        "exit": code,
        "seconds": time.perf_counter() - started,
        "peak_rss_mb": usage.ru_maxrss / 1024,  # kilobytes on Linux
    }
    sys.stdout.flush()
    sys.stderr.write("\n" + MARKER + json.dumps(report) + "\n")
    sys.stderr.flush()
    raise SystemExit(code)


if __name__ == "__main__":
    main()
