"""Keystroke-to-error latency of the argument editor for a 1 KB and a 100 KB document.

Run: ``uv run python benchmarks/editor_latency.py``. Starts the reference agent on
127.0.0.1, opens the editor for evaluate_resource_condition, then for each size types one
character that makes the document invalid and measures until the Problems table shows the
error (this includes the 150 ms debounce), and separately the validation time alone.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.runner import start_agent
from sia_tui.core.engine.model import Target
from sia_tui.core.validation import compile_schema, validate_json_text
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.invoke import VALIDATE_DELAY, InvokeScreen, input_schema_of
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor

ROUNDS = 10


def document_of_size(size: int) -> str:
    """Valid Appendix B arguments padded (inside resource_id's sibling notes) to ~size bytes.

    The pad is a list of small objects in a member the schema does not allow, so the text
    has realistic JSON structure; the measured keystroke turns the threshold into a string.
    """
    base: dict[str, Any] = {
        "resource_id": "network-resource-123",
        "condition": {
            "metric": "utilization",
            "operator": "gte",
            "threshold": 80,
            "unit": "percent",
        },
    }
    text = json.dumps(base, indent=2)
    notes: list[dict[str, object]] = []
    while len(text) < size:
        notes.append({"id": len(notes), "note": "padding to grow the document " * 2})
        text = json.dumps(base | {"x_notes": notes}, indent=2)
    return text


async def measure(size: int) -> tuple[float, float, int]:
    """Median keystroke-to-error ms, median validation-only ms, and the text length."""
    agent = start_agent(AgentConfig(step_delay=0.05))
    try:
        with tempfile.TemporaryDirectory() as home:
            dirs = UserDirs(Path(home) / "c", Path(home) / "d")
            app = SiaApp(Target(agent.url), dirs=dirs, snapshot_mode=True)
            async with app.run_test(size=(120, 36)) as pilot:
                await app.workers.wait_for_complete()
                await pilot.press("2", "r")
                await app.workers.wait_for_complete()
                await pilot.press("5")
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, InvokeScreen)
                editor = screen.query_one(ArgumentEditor)
                text = document_of_size(size)
                totals = []
                for _ in range(ROUNDS):
                    editor.load_text(text)
                    await pilot.pause(0.4)
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    # Type "x" inside "gte": still JSON, but the operator leaves its enum,
                    # so the full parse + schema validation runs and reports an error.
                    row = next(i for i, line in enumerate(text.splitlines()) if '"gte"' in line)
                    col = text.splitlines()[row].index('"gte"') + 4
                    editor.cursor_location = (row, col)
                    before = screen.last_result
                    started = time.perf_counter()
                    await pilot.press("x")
                    while screen.last_result is before:
                        await asyncio.sleep(0.001)
                    totals.append((time.perf_counter() - started) * 1000)
                run = app.current_run
                assert run is not None
                compiled = compile_schema(input_schema_of(run.document))
                broken = editor.text
                alone = []
                for _ in range(ROUNDS):
                    started = time.perf_counter()
                    validate_json_text(compiled, broken)
                    alone.append((time.perf_counter() - started) * 1000)
                return statistics.median(totals), statistics.median(alone), len(text)
    finally:
        agent.stop()


async def main() -> None:
    """Print one line per document size."""
    print(f"debounce {VALIDATE_DELAY * 1000:.0f} ms; median of {ROUNDS} keystrokes")
    for size in (1024, 100 * 1024):
        total, alone, length = await measure(size)
        print(
            f"{length:>7,} chars: keystroke -> error shown {total:7.1f} ms "
            f"(validation alone {alone:6.1f} ms)"
        )


if __name__ == "__main__":
    asyncio.run(main())
