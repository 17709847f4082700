"""Validation errors of a flood in bounded memory: sia-tui's listing against counting them all.

jsonschema-rs builds every error of a call before the first can be read (800,000 errors:
about 8 s and 1.3 GB), so ``CompiledSchema.validate`` lists an instance part by part
(``sia_tui/core/schemas/error_listing.py``): the first ``MAX_FINDINGS`` errors listed, the
count stopped at ``MAX_COUNTED_ERRORS``. This measures, each in a child process so its
peak RSS is its own: sia-tui's ``validate``, and counting every error with jsonschema-rs
and with Python jsonschema's lazy ``iter_errors`` (one error alive at a time).

Goal: the 800,000-error hostile value stays under 300 MB RSS.

Run on demand: ``uv run python benchmarks/error_counting.py``. Prints seconds and peak RSS;
asserts nothing.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from typing import Any

#: Items per case: "hostile" is the 800,000-error value of the goal.
SIZES = {"flat": 100_000, "wide": 100_000, "hostile": 800_000}
#: The goal for sia-tui on the hostile value, in MB of peak RSS.
GOAL_MB = 300


def case(name: str) -> tuple[dict[str, Any], Any]:
    """flat/hostile: N wrong items, one error each; wide: N objects of 8 too-long strings."""
    n = SIZES[name]
    if name in ("flat", "hostile"):
        items: dict[str, Any] = {"type": "string"}
        instance: Any = {"result": list(range(n))}
    else:
        members = {f"m{i}": {"type": "string", "maxLength": 2} for i in range(8)}
        items = {"type": "object", "properties": members}
        instance = {"result": [{f"m{i}": "x" * 50 for i in range(8)} for _ in range(n)]}
    schema = {"type": "object", "properties": {"result": {"type": "array", "items": items}}}
    return schema, instance


def count(name: str, engine: str) -> None:
    """In the child: count (or, for sia-tui, list) the errors; print errors, s, peak MB."""
    schema, instance = case(name)
    started = time.perf_counter()
    if engine == "sia-tui":
        from sia_tui.core.bounded import error_count
        from sia_tui.core.schemas.validation import compile_schema

        errors = error_count(compile_schema(schema).validate(instance))
    elif engine == "python":
        from jsonschema import Draft202012Validator

        errors = sum(1 for _ in Draft202012Validator(schema).iter_errors(instance))
    else:
        import jsonschema_rs

        errors = sum(1 for _ in jsonschema_rs.Draft202012Validator(schema).iter_errors(instance))
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{errors} {seconds:.2f} {peak:.0f}")


def main() -> None:
    for name in SIZES:
        engines = ("sia-tui", "jsonschema-rs") + (("python",) if name != "hostile" else ())
        figures: dict[str, tuple[float, float]] = {}
        for engine in engines:
            done = subprocess.run(
                [sys.executable, __file__, name, engine], capture_output=True, text=True
            )
            errors, seconds, peak = done.stdout.split()
            figures[engine] = (float(seconds), float(peak))
            print(
                f"{name:7} {engine:14} {int(errors):>8} errors {seconds:>6} s  {peak:>5} MB"
                + ("  (counted up to the bound)" if engine == "sia-tui" else "")
            )
        ours, rs = figures["sia-tui"], figures["jsonschema-rs"]
        print(
            f"{name:7} sia-tui / counting all with jsonschema-rs: time {ours[0] / rs[0]:.2f}x, "
            f"peak RSS {ours[1] / rs[1]:.2f}x"
        )
        if name == "hostile":
            verdict = "meets" if ours[1] < GOAL_MB else "MISSES"
            print(f"hostile goal: peak RSS under {GOAL_MB} MB: {verdict} ({ours[1]:.0f} MB)")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        count(sys.argv[1], sys.argv[2])
    else:
        main()
