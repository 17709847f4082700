"""How long a key takes on the TUI while a hostile agent floods a stream with WORKING
updates (tens of thousands a second): the seconds from the key to the screen it asks for.

Run on demand: ``uv run python benchmarks/tui_flood_key.py``. The test
(``tests/hostile/test_tui_flood.py``) asserts that the key is handled while the flood still
goes on; the time is a figure of this machine and its load, so it is printed here. A person
notices a second (a redraw per event once queued about 1.5 s of redraws before the key).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from pathlib import Path

from tests.hostile.test_tui_flood import key_during_flood

ROUNDS = 5


def main() -> None:
    seconds = []
    for _ in range(ROUNDS):
        with tempfile.TemporaryDirectory() as folder:
            seconds.append(asyncio.run(key_during_flood(Path(folder))))
    print(f"key to screen during a stream flood, {ROUNDS} rounds:")
    print(f"  median {statistics.median(seconds):.3f} s, worst {max(seconds):.3f} s (goal < 1 s)")


if __name__ == "__main__":
    main()
