"""Files a user names that are not regular files, or are huge: how long until sia-tui says no,
and at what memory.

Run on demand: ``uv run python benchmarks/local_files.py``. Each command runs in its own
process: a FIFO nobody writes to as `check --args`, as a session (`replay`), as the plugfest
file; `matrix /dev/zero`; and a 3 GiB sparse plugfest file. Before the bounds the FIFOs hung
forever, `/dev/zero` grew to about 3 GB and ended in MemoryError, and the 3 GiB file was
read whole before its 1 MiB check. Goal: refused at once (the time is the process start),
memory of an idle command. Asserts nothing.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from measured import measure


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        fifo = folder / "pipe"
        os.mkfifo(fifo)
        huge = folder / "PLUGFEST.toml"
        with huge.open("wb") as handle:
            handle.truncate(3 * 1024**3)
        cases = {
            "check --args FIFO": ["check", "http://127.0.0.1:9", "--args", str(fifo)],
            "replay FIFO": ["replay", str(fifo)],
            "matrix FIFO": ["matrix", str(fifo), "--json"],
            "matrix /dev/zero": ["matrix", "/dev/zero", "--json"],
            "matrix 3 GiB file": ["matrix", str(huge), "--json"],
        }
        for label, args in cases.items():
            run = measure(args, timeout=120)
            refusal = run.stderr.split("\n" + "SIA-MEASURED")[0].strip().splitlines()[-1]
            said = refusal.rsplit(": ", 1)[-1][:50]
            figures = f"exit {run.exit}  {run.seconds:5.2f} s  peak {run.peak_mb:4.0f} MB"
            print(f"{label:20} {figures}  {said}")


if __name__ == "__main__":
    main()
