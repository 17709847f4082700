"""Compare validation engines on 1 KB and 100 KB instances (run on demand, not in CI).

uv run python benchmarks/validation_engine.py
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from sia_tui.core.schemas import validation

SCHEMA: dict[str, Any] = {
    "$defs": {
        "observation": {
            "type": "object",
            "required": ["record_id", "resource_id", "metric", "value", "observed_at"],
            "additionalProperties": False,
            "properties": {
                "record_id": {"type": "string", "pattern": "^[a-z]+-[0-9]+$"},
                "resource_id": {"type": "string", "minLength": 1},
                "metric": {"enum": ["utilization", "errors", "latency"]},
                "value": {"type": "number", "minimum": 0},
                "unit": {"const": "percent"},
                "observed_at": {"type": "string", "format": "date-time"},
            },
        }
    },
    "type": "object",
    "required": ["observations"],
    "properties": {"observations": {"type": "array", "items": {"$ref": "#/$defs/observation"}}},
}


def instance(size: int) -> dict[str, Any]:
    """An instance of roughly ``size`` bytes of JSON."""
    one = {
        "record_id": "observation-7",
        "resource_id": "network-resource-123",
        "metric": "utilization",
        "value": 42.5,
        "unit": "percent",
        "observed_at": "2026-08-11T12:00:01Z",
    }
    count = max(1, round(size / (len(json.dumps(one)) + 2)))
    return {"observations": [dict(one) for _ in range(count)]}


def timed(func: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``func`` in milliseconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def bench_jsonschema(data: dict[str, Any], repeat: int) -> tuple[float, float]:
    """The pure-Python engine, with format assertion on (what FMT1 needs)."""
    from jsonschema import Draft202012Validator, FormatChecker

    def compile_fresh() -> Draft202012Validator:
        return Draft202012Validator(SCHEMA, format_checker=FormatChecker())

    compiled = compile_fresh()
    assert compiled.is_valid(data)
    # jsonschema compiles lazily: the first validation pays for $ref resolution.
    return timed(compile_fresh, repeat), timed(lambda: list(compiled.iter_errors(data)), repeat)


def bench_jsonschema_rs(data: dict[str, Any], repeat: int) -> tuple[float, float]:
    """The Rust engine as sia-tui configures it (offline, formats asserted)."""
    import jsonschema_rs

    def compile_fresh() -> Any:
        return jsonschema_rs.Draft202012Validator(SCHEMA, validate_formats=True, offline=True)

    compiled = compile_fresh()
    assert compiled.is_valid(data)
    return timed(compile_fresh, repeat), timed(lambda: list(compiled.iter_errors(data)), repeat)


def bench_compiled_schema(data: dict[str, Any], repeat: int) -> tuple[float, float]:
    """sia-tui's CompiledSchema: the Rust engine plus the depth guard and Finding mapping."""

    def compile_fresh() -> validation.CompiledSchema:
        return validation.CompiledSchema(json.loads(json.dumps(SCHEMA)), "bench")

    compiled = compile_fresh()
    assert compiled.validate(data) == []
    return timed(compile_fresh, repeat), timed(lambda: compiled.validate(data), repeat)


def main() -> None:
    print(f"{'engine':<16}{'instance':>10}{'compile ms':>12}{'validate ms':>13}")
    for size in (1_000, 100_000):
        data = instance(size)
        label = f"{len(json.dumps(data)) / 1024:.1f} KB"
        repeat = 200 if size < 10_000 else 20
        for name, bench in (
            ("jsonschema", bench_jsonschema),
            ("jsonschema-rs", bench_jsonschema_rs),
            ("CompiledSchema", bench_compiled_schema),
        ):
            compile_ms, validate_ms = bench(data, repeat)
            print(f"{name:<16}{label:>10}{compile_ms:>12.3f}{validate_ms:>13.3f}")


if __name__ == "__main__":
    main()
