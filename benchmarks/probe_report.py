"""`sia-tui report` of a hand-inflated probe session: 6,125 and 24,500 failed probes.

Run on demand: ``uv run python benchmarks/probe_report.py``. Builds a probe session against
the reference agent, copies one of its results, graded fail, until the session holds N
results (21 MB at 24,500, within the session limits), then reports it as HTML and Markdown
in a child process: time, peak memory and page size, and the time ratio for 4x the results
(linear shows 4 or less). Before the bounds: 43-52 s, 1.3-2.7 GB and a 293-437 MB page at
24,500. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from measured import measure

from sia_tui.agent import AgentConfig, Fault, start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.session import save_probe_session
from tests.support.probe import probe

SIZES = (6_125, 24_500)


def recorded(folder: Path) -> dict[str, object]:
    """A probe session with one failing probe (the agent ignores max_input_bytes)."""
    agent = start_agent(AgentConfig(fault=Fault.IGNORES_MAX_INPUT))
    try:
        report = asyncio.run(probe(agent.url))
    finally:
        agent.stop()
    path = folder / "probe.session.json"
    save_probe_session(report, ClientOptions(), path)
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        data = recorded(folder)
        results = data["probe"]["results"]  # type: ignore[index]
        # A small result graded fail: the oversized-input probe's own carries 4 KB sent.
        small = next(r for r in results if r["kind"] == "unadvertised-skill")
        failed = {**small, "grade": "fail", "should_have": "a task in TASK_STATE_REJECTED"}
        times: dict[tuple[str, int], float] = {}
        for size in SIZES:
            data["probe"]["results"] = [failed] * size  # type: ignore[index]
            session = folder / f"{size}.session.json"
            session.write_text(json.dumps(data), encoding="utf-8")
            megabytes = session.stat().st_size / 1e6
            for form in ("html", "markdown"):
                out = folder / f"{size}.{form}"
                run = measure(["report", str(session), "--format", form, "-o", str(out)])
                times[form, size] = run.seconds
                print(
                    f"{size:>6} results ({megabytes:4.1f} MB) {form:8}: {run.seconds:5.1f} s, "
                    f"peak {run.peak_mb:4.0f} MB, page {out.stat().st_size / 1e3:6.0f} KB"
                )
        for form in ("html", "markdown"):
            ratio = times[form, SIZES[1]] / times[form, SIZES[0]]
            print(f"{form}: time x{ratio:.1f} for x{SIZES[1] // SIZES[0]} the results")


if __name__ == "__main__":
    main()
