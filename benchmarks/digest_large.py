"""`sia-tui digest` of a 10 MB document against json.load + json.dumps(sort_keys) + sha256.

Run on demand: ``uv run python benchmarks/digest_large.py [ROUNDS]``. The candidate is
what the ``digest`` command runs after start-up: strict loading of the file, RFC 8785
canonicalization and SHA-256. The goal (README, Performance) is at most 1.5x. Prints figures and
ratios, asserts nothing.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from pairs import interleaved

from sia_tui.cli.cmd_canon import digest_of_file

GOAL = 1.5
SIZE = 10_000_000


def document(size: int = SIZE, seed: int = 7) -> dict[str, Any]:
    """A task artifact of about ``size`` bytes once indented: records of mixed scalars.

    Floats are rounded to three decimals, so some are integral (42.0), as real agent
    output is; a few strings are non-ASCII.
    """
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    written = 0
    while written < size:
        i = len(records)
        record = {
            "record_id": f"observation-{i}",
            "resource_id": f"network-resource-{rng.randrange(1000)}",
            "metric": rng.choice(["utilization", "errors", "latency", "throughput"]),
            "value": round(rng.uniform(0, 100), 3),
            "count": rng.randrange(100_000),
            "unit": "percent",
            "observed_at": f"2026-08-11T12:{i % 60:02d}:{i * 7 % 60:02d}Z",
            "ok": rng.random() < 0.9,
            "tags": [rng.choice(["core", "edge", "lab", "café"]) for _ in range(3)],
            "location": {"site": f"site-{rng.randrange(50)}", "rack": rng.randrange(40)},
            "note": None,
        }
        records.append(record)
        # Indented two levels deep in the file: every line of the record gains two spaces.
        text = json.dumps(record, indent=1, ensure_ascii=False)
        written += len(text.encode()) + 2 * text.count("\n") + 6
    return {"skill_id": "evaluate_resource_condition", "observations": records}


def baseline(path: Path) -> str:
    """The floor: the standard library's C parser and encoder, then SHA-256."""
    with path.open("rb") as handle:
        value = json.load(handle)
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def jcs_reference(path: Path) -> str:
    """SHA-256 hex of the document's bytes from rfc8785 itself (checks the fast path)."""
    import rfc8785

    return hashlib.sha256(rfc8785.dumps(json.loads(path.read_bytes()))).hexdigest()


def main() -> None:
    """Write the document once, then time both sides in interleaved pairs."""
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.json"
        path.write_text(json.dumps(document(), indent=1, ensure_ascii=False), encoding="utf-8")
        records = len(json.loads(path.read_bytes())["observations"])
        print(f"document: {path.stat().st_size / 1e6:.1f} MB, {records} records")
        assert digest_of_file(str(path)) == f"sha256:{jcs_reference(path)}"
        pairs = interleaved(lambda: baseline(path), lambda: digest_of_file(str(path)), rounds)
        print(pairs.report("sia-tui digest", "json.load + json.dumps(sort_keys) + sha256", GOAL))


if __name__ == "__main__":
    main()
