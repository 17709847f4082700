"""`check --json` against an answer of 50,000 tiny supporting records (about 4 MB).

Run on demand: ``uv run python benchmarks/artifact_flood.py``. Prints the time, peak memory
and output size of the command (in its own process) against the goals of < 3 s and
< 300 MB, and the step-10 message's length. Before the bounds: 41 s, 1.15 GB, 128 MB
printed, a 489 KB message (12 s, 432 MB, 42 MB on the dev machine). Asserts nothing.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from measured import against, measure

from tests.hostile.attacks import ARTIFACTS
from tests.hostile.honest import ARGUMENTS, SKILL
from tests.hostile.measure import serving


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, serving("artifact-flood") as server:
        arguments = Path(folder) / "arguments.json"
        arguments.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
        flags = ["--json", "--no-cache", "--deadline", "120", "--timeout", "60"]
        run = measure(["check", server.url, "--skill", SKILL, "--args", str(arguments), *flags])
    report = json.loads(run.stdout)
    message = report["steps"][9]["message"]
    print(f"check --json, {ARTIFACTS} records: exit {run.exit}")
    print(f"  time    {against(run.seconds, 3, 's')}")
    print(f"  memory  {against(run.peak_mb, 300, 'MB')}")
    printed = f"{len(run.stdout) / 1e6:.2f} MB (was 128 MB)"
    print(f"  printed {printed}; step-10 message {len(message)} B (was 489 KB)")


if __name__ == "__main__":
    main()
