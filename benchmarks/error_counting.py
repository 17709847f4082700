"""Can the validation errors past the kept ones be *counted* in bounded memory?

``CompiledSchema`` lists at most ``MAX_FINDINGS`` errors, but jsonschema-rs builds every
error before the first can be read, so past ``MAX_LISTING_WORK`` only the first error is
shown, with no count. This compares counting every error with jsonschema-rs and with
Python jsonschema's lazy ``iter_errors`` (one error alive at a time), each in a child
process so its peak RSS is its own.

Run on demand: ``uv run python benchmarks/error_counting.py``. Prints seconds and peak RSS;
asserts nothing.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from typing import Any

N = 100_000


def case(name: str) -> tuple[dict[str, Any], Any]:
    """flat: N wrong items, one error each; wide: N objects of 8 too-long strings (8N)."""
    if name == "flat":
        items: dict[str, Any] = {"type": "string"}
        instance: Any = {"result": list(range(N))}
    else:
        members = {f"m{i}": {"type": "string", "maxLength": 2} for i in range(8)}
        items = {"type": "object", "properties": members}
        instance = {"result": [{f"m{i}": "x" * 50 for i in range(8)} for _ in range(N)]}
    schema = {"type": "object", "properties": {"result": {"type": "array", "items": items}}}
    return schema, instance


def count(name: str, engine: str) -> None:
    """In the child: count every error, print errors, seconds and peak RSS in MB."""
    schema, instance = case(name)
    started = time.perf_counter()
    if engine == "python":
        from jsonschema import Draft202012Validator

        errors = sum(1 for _ in Draft202012Validator(schema).iter_errors(instance))
    else:
        import jsonschema_rs

        errors = sum(1 for _ in jsonschema_rs.Draft202012Validator(schema).iter_errors(instance))
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{errors} {seconds:.2f} {peak:.0f}")


def main() -> None:
    for name in ("flat", "wide"):
        for engine in ("jsonschema-rs", "python"):
            done = subprocess.run(
                [sys.executable, __file__, name, engine], capture_output=True, text=True
            )
            errors, seconds, peak = done.stdout.split()
            print(f"{name:5} {engine:14} {int(errors):>8} errors {seconds:>6} s  {peak:>5} MB")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        count(sys.argv[1], sys.argv[2])
    else:
        main()
