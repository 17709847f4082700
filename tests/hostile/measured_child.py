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


def peak_mb() -> float:
    """This process image's peak resident set size. ``ru_maxrss`` keeps the peak of the
    forked parent across exec (a big pytest worker would be measured); Linux's VmHWM
    belongs to this image alone."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def main() -> None:
    started = time.perf_counter()
    from sia_tui.cli import main as cli

    code = cli(sys.argv[1:])
    report = {"exit": code, "seconds": time.perf_counter() - started, "peak_rss_mb": peak_mb()}
    sys.stdout.flush()
    sys.stderr.write("\n" + MARKER + json.dumps(report) + "\n")
    sys.stderr.flush()
    raise SystemExit(code)


if __name__ == "__main__":
    main()
