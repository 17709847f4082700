"""Keystroke-to-error latency of the argument editor for a 1 KB, a 100 KB and a 1 MB document.

Run: ``uv run python benchmarks/editor_latency.py``. Starts the reference agent on
127.0.0.1, opens the editor for evaluate_resource_condition, then for each size types one
character that makes the document invalid and measures until the Problems table holds the
error and the screen has been redrawn with it: the 150 ms debounce, the strict reparse,
the validation and the locating in the worker thread, the table and underline update, and
one frame. Separately: the worker's part alone (``validate_json_text``), against
``json.loads`` of the same text. Goals (README, Performance): at most 50 ms beyond the debounce,
validation under 16 ms. The 1 MB document has three errors once the key is typed (the padding
member, a string threshold, the operator): all three must be listed, within 50 ms
beyond the debounce. Also the CPU time of the main (UI) thread per keystroke, from the
key press until the error is drawn (the check itself runs in a worker thread). Prints
figures, asserts nothing; ``--size N`` measures one size (an interleaved comparison runs
this script from two checkouts in turn).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent
from sia_tui.core.run.read_model import Target
from sia_tui.core.schemas.validation import compile_schema, validate_json_text
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.invoke_check import VALIDATE_DELAY
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor

ROUNDS = 10
#: The goals: keystroke to error beyond the debounce, and the validation alone (ms).
GOAL_BEYOND_DEBOUNCE = 50.0
GOAL_VALIDATION = 16.0


def document_of_size(size: int, *, threshold: Any = 80) -> str:
    """Appendix B arguments padded (inside resource_id's sibling notes) to ~size bytes.

    The pad is a list of small objects in a member the schema does not allow, so the text
    has realistic JSON structure; the measured keystroke puts the operator out of its enum.
    """
    base: dict[str, Any] = {
        "resource_id": "network-resource-123",
        "condition": {
            "metric": "utilization",
            "operator": "gte",
            "threshold": threshold,
            "unit": "percent",
        },
    }

    def padded(count: int) -> str:
        notes = [{"id": i, "note": "padding to grow the document " * 2} for i in range(count)]
        return (
            json.dumps(base | {"x_notes": notes}, indent=2) if count else json.dumps(base, indent=2)
        )

    # The fewest notes that reach ``size`` (the text grows with each note), found by
    # doubling then halving: one dump per note was quadratic, minutes for 1 MB.
    high = 1
    while len(padded(high)) < size:
        high *= 2
    low = 0  # len(padded(low)) < size <= len(padded(high)), unless size is reached at 0
    if len(padded(0)) >= size:
        return padded(0)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(padded(middle)) < size else (low, middle)
    return padded(high)


async def measure(size: int) -> tuple[float, float, float, float, int, int]:
    """Median keystroke-to-error ms, median main-thread CPU ms of it, median validation-only
    ms, median ``json.loads`` ms of the same text, the text length, and how many errors the
    Problems table listed."""
    agent = start_agent(AgentConfig(step_delay=0.05))
    try:
        with tempfile.TemporaryDirectory() as home:
            dirs = UserDirs(Path(home) / "c", Path(home) / "d")
            os.environ["SIA_TUI_DATA_DIR"] = str(dirs.data)  # autosaves stay in the temp dir
            app = SiaApp(Target(agent.url), dirs=dirs)
            async with app.run_test(size=(120, 36)) as pilot:
                await app.workers.wait_for_complete()
                await pilot.press("2", "r")
                await app.workers.wait_for_complete()
                await pilot.press("5")
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, InvokeScreen)
                editor = screen.query_one(ArgumentEditor)
                # The 1 MB document carries a second error of its own (three in all).
                text = document_of_size(size, threshold="80" if size > 500_000 else 80)
                totals, cpu = [], []
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
                    # The cursor's own move is drawn before the clock starts: that frame
                    # belongs to the click or arrow keys that moved it, not to the keystroke.
                    await pilot.pause()
                    before = screen.last_result
                    started = time.perf_counter()
                    cpu_started = time.thread_time()  # this coroutine runs on the UI thread
                    await pilot.press("x")
                    while screen.last_result is before:
                        await asyncio.sleep(0.001)
                    table = screen.query_one("#errors", DataTable)
                    assert table.row_count and table.display  # the error is listed
                    listed = table.row_count
                    await pilot.pause(0)  # and drawn: the pause ends with a screen refresh
                    totals.append((time.perf_counter() - started) * 1000)
                    cpu.append((time.thread_time() - cpu_started) * 1000)
                run = app.current_run
                assert run is not None
                compiled = compile_schema(run.answers.input_schema)
                broken = editor.text
                alone, loads = [], []
                for _ in range(ROUNDS):
                    started = time.perf_counter()
                    validate_json_text(compiled, broken)
                    alone.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    json.loads(broken)
                    loads.append((time.perf_counter() - started) * 1000)
                return (
                    statistics.median(totals),
                    statistics.median(cpu),
                    statistics.median(alone),
                    statistics.median(loads),
                    len(text),
                    listed,
                )
    finally:
        agent.stop()


async def main() -> None:
    """Print one line per document size."""
    debounce = VALIDATE_DELAY * 1000
    print(f"debounce {debounce:.0f} ms; median of {ROUNDS} keystrokes")
    sizes = [int(sys.argv[2])] if sys.argv[1:2] == ["--size"] else [1024, 100 * 1024, 1024**2]
    for size in sizes:
        total, cpu, alone, loads, length, listed = await measure(size)
        beyond = total - debounce
        print(
            f"{length:>7,} chars: keystroke -> error shown {total:6.1f} ms, "
            f"{beyond:5.1f} ms beyond the debounce (goal <= {GOAL_BEYOND_DEBOUNCE:.0f}: "
            f"{'meets' if beyond <= GOAL_BEYOND_DEBOUNCE else 'MISSES'}); "
            f"UI thread CPU {cpu:5.1f} ms; "
            f"validation alone {alone:5.1f} ms (goal < {GOAL_VALIDATION:.0f}: "
            f"{'meets' if alone < GOAL_VALIDATION else 'MISSES'}), "
            f"{alone / loads:.1f}x json.loads of the same text ({loads:.2f} ms); "
            f"{listed} error(s) listed"
        )


if __name__ == "__main__":
    asyncio.run(main())
