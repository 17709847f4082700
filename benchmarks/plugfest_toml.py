"""Plugfest files built to exhaust the TOML reader: long dotted keys and deep nesting.

Run on demand: ``uv run python benchmarks/plugfest_toml.py``. For dotted table headers of
growing length, prints what ``tomllib`` alone takes (quadratic: 2x the parts costs about 4x;
200 KB took 36 s, 1 MB minutes) and what ``load_plugfest`` takes now (one linear scan that
refuses the file on its line); then `sia-tui matrix` on 1 MB of header and on 5,000 nested
arrays (a RecursionError traceback before), in a child process. Goal: refused at once,
linear. Asserts nothing.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
import tomllib
from pathlib import Path

from measured import measure

from sia_tui.core.matrix import PlugfestError, load_plugfest

AGENT = '[[agent]]\nname = "a"\ncard = "http://127.0.0.1:9"\n'
PARTS = (5_000, 10_000, 20_000, 40_000)


def seconds(call: object, *args: object) -> float:
    started = time.perf_counter()
    with contextlib.suppress(PlugfestError, tomllib.TOMLDecodeError, RecursionError):
        call(*args)  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "PLUGFEST.toml"
        print(f"{'dotted header':>14} {'tomllib':>9} {'load_plugfest':>14}")
        for parts in PARTS:
            text = AGENT + "[" + ".".join(["a"] * parts) + "]\n"
            path.write_text(text, encoding="utf-8")
            parsed = seconds(tomllib.loads, text)
            loaded = seconds(load_plugfest, path, {})
            print(f"{parts:>8} parts {parsed:8.2f}s {loaded:13.3f}s")
        for label, body in {
            "1 MB dotted header": "[" + ".".join(["a"] * 500_000) + "]\n",
            "5,000 nested arrays": "x = " + "[" * 5000 + "]" * 5000 + "\n",
        }.items():
            path.write_text(AGENT + body, encoding="utf-8")
            run = measure(["matrix", str(path), "--json"], timeout=600)
            reason = run.stderr.split("\nSIA-MEASURED")[0].strip().splitlines()[-1][-70:]
            print(f"matrix, {label}: exit {run.exit}, {run.seconds:.2f} s, {reason}")


if __name__ == "__main__":
    main()
