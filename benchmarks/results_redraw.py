"""Results redraws with a 5 MB artifact, against the same redraws with the Appendix B result.

Run on demand: ``uv run python benchmarks/results_redraw.py [ROUNDS]``. Each round starts a
fresh interpreter per artifact (interleaved, alternating which goes first; the machine is
shared) running the real app headless at 120x36 against the reference agent on 127.0.0.1:
the correct agent (a 0.2 KB result) and ``--fault large-result`` (the result padded to
5 MB as sent, about 6.8 MB and 286,000 lines pretty-printed). After invoking with the
Appendix B arguments it times each redraw, from the key press until the app is idle again
with the expected rows painted:

- ``first show``: Results' prepared texts dropped, then ``6`` from the Overview;
- ``switch back``: ``1`` then ``6`` (the prepared text is reused);
- ``page down`` and ``end`` in the result pane (``end`` until its last row is painted);
- ``show all`` (``a``) to its first frame; then show all again with the texts forgotten
  while scrolling a row every 20 ms until the worker has formatted the 5 MB: its figure is
  the longest time between two frames meanwhile (the UI must not freeze), and its idle
  figure how long the worker took; then ``end``
  until the artifact's last line is on screen (this waits for the worker if still running);
- ``resize`` to 100x30 and back;
- ``switch back`` again after show all.

Scrolling is not animated (``animation_level = "none"``): a smooth scroll is many cheap
frames, not one redraw. A redraw's figure is the time from the key press to the frame that
shows its result (the app's ``_display``, which headless Textual calls once a frame is
rendered); the time until the app is idle again, which includes Pilot's own waits and any
worker still running, is printed beside it.

Prints each figure (median over rounds), the worst and the median redraw, each ratio to the
baseline, and each child's peak RSS (``resource.getrusage``; the agent runs in the same
process, so it counts too). The goal (README, Performance): every redraw < 200 ms, peak RSS
< 500 MB. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sia_tui.agent.schemas import RESOURCE_CONDITION_INPUT

SIZE = (120, 36)
GOAL_MS = 200.0
GOAL_RSS_MB = 500.0
#: The draft's Appendix B arguments (the example of evaluate_resource_condition's input).
ARGUMENTS = json.dumps(RESOURCE_CONDITION_INPUT.schema["examples"][0])
REDRAWS = (
    "first show",
    "switch back",
    "page down",
    "end",
    "show all",
    "scroll (formatting)",
    "end (all)",
    "resize",
    "resize back",
    "switch back (all)",
)


def rss_mb() -> float:
    """The current resident set in MB (Linux; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def forget(results: Any) -> None:
    """Drop Results' prepared texts: the next redraw formats them as on a first show."""
    if hasattr(results, "_texts"):
        results._texts.clear()
        for view in results.query("BlocksView"):
            view._blocks = ()


async def _idle(pilot: Any) -> None:
    """Until every pending message, refresh and paint is done."""
    await pilot.pause()
    await pilot.pause()


class Frames:
    """When the app wrote each frame (headless: the frame is rendered, then dropped)."""

    def __init__(self, app: Any) -> None:
        self.times: list[float] = []
        display = app._display

        def recording(screen: Any, renderable: Any) -> None:
            if renderable is not None:
                self.times.append(time.perf_counter())
            display(screen, renderable)

        app._display = recording


async def _timed(
    pilot: Any, frames: Frames, action: Any, shown: Any = None, *, first: bool = False
) -> tuple[float, float]:
    """Milliseconds from ``action`` to the frame that shows its result, and until idle.

    The frame is the last one before the app was idle (and ``shown()`` held), or with
    ``first`` the first one after the action (show all: its first screenful, while the
    worker still formats the rest).
    """
    mark = len(frames.times)
    started = time.perf_counter()
    await action()
    await _idle(pilot)
    if shown is not None and not shown():
        while not shown():
            await pilot.pause(0.002)
        await _idle(pilot)  # and painted
    idle = time.perf_counter()
    new = frames.times[mark:]
    frame = (new[0] if first else new[-1]) if new else idle
    return (frame - started) * 1000, (idle - started) * 1000


async def measure(fault: str | None) -> dict[str, Any]:
    """One child's figures: ms per redraw and the peak RSS."""
    from sia_tui.agent.config import AgentConfig
    from sia_tui.agent.faults import fault_named
    from sia_tui.agent.serving import start_agent
    from sia_tui.core.run.read_model import Target
    from sia_tui.tui.app import SiaApp
    from sia_tui.tui.jsontext import pretty_json
    from sia_tui.tui.screens.invoke import InvokeScreen
    from sia_tui.tui.screens.results import ResultsScreen, artifact_value
    from sia_tui.tui.storage import UserDirs
    from sia_tui.tui.widgets.argument_editor import ArgumentEditor

    config = AgentConfig(fault=None if fault is None else fault_named(fault), step_delay=0.05)
    agent = start_agent(config, quiet=True)
    figures: dict[str, tuple[float, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as home:
            dirs = UserDirs(Path(home) / "c", Path(home) / "d")
            os.environ["SIA_TUI_DATA_DIR"] = str(dirs.data)  # autosaves stay in the temp dir
            app = SiaApp(Target(agent.url), dirs=dirs)
            # Scrolling jumps: an animated scroll is many cheap frames, not one redraw.
            app.animation_level = "none"
            async with app.run_test(size=SIZE) as pilot:
                frames = Frames(app)
                await app.workers.wait_for_complete()
                await pilot.press("2", "r")
                await app.workers.wait_for_complete()
                await pilot.press("5")
                await _idle(pilot)
                invoke = app.screen
                assert isinstance(invoke, InvokeScreen)
                invoke.query_one(ArgumentEditor).load_text(ARGUMENTS)
                await pilot.pause(0.4)
                await app.workers.wait_for_complete()
                await pilot.press("ctrl+j")
                while not isinstance(app.screen, ResultsScreen) or app.workers._workers:
                    await pilot.pause(0.05)
                await app.workers.wait_for_complete()
                await _idle(pilot)
                results = app.screen
                run = app.current_run
                assert run is not None and run.result is not None
                body = results.query_one("#result-body")
                pane: Any = body if body.can_focus else body.parent

                def at_end() -> bool:
                    # Scrolled to the bottom, with every line formatted (a worker may still
                    # be formatting the rest after show all).
                    texts = [getattr(b, "complete", True) for b in getattr(pane, "_blocks", ())]
                    return bool(pane.is_vertical_scroll_end) and all(texts)

                async def keys(*names: str) -> None:
                    await pilot.press(*names)

                await pilot.press("1")
                await _idle(pilot)
                before = rss_mb()
                forget(results)
                figures["first show"] = await _timed(pilot, frames, lambda: keys("6"))
                await pilot.press("1")
                await _idle(pilot)
                figures["switch back"] = await _timed(pilot, frames, lambda: keys("6"))
                pane.focus()
                await _idle(pilot)
                figures["page down"] = await _timed(pilot, frames, lambda: keys("pagedown"))
                figures["end"] = await _timed(pilot, frames, lambda: keys("end"), at_end)
                figures["show all"] = await _timed(pilot, frames, lambda: keys("a"), first=True)
                await _idle(pilot)
                forget(results)
                results.action_show_all()  # the worker starts formatting the 5 MB anew
                texts = [b for v in results.query("BlocksView") for b in getattr(v, "_blocks", ())]
                mark, started = len(frames.times), time.perf_counter()
                while not all(getattr(t, "complete", True) for t in texts):
                    pane.scroll_relative(y=1, animate=False)  # a person scrolling meanwhile
                    await pilot.pause(0.02)
                busy = (time.perf_counter() - started) * 1000
                shown = [started, *frames.times[mark:]]
                gap = max((b - a for a, b in zip(shown, shown[1:], strict=False)), default=0)
                figures["scroll (formatting)"] = (gap * 1000, busy)
                pane.focus()
                figures["end (all)"] = await _timed(pilot, frames, lambda: keys("end"), at_end)
                figures["resize"] = await _timed(
                    pilot, frames, lambda: pilot.resize_terminal(100, 30)
                )
                figures["resize back"] = await _timed(
                    pilot, frames, lambda: pilot.resize_terminal(*SIZE)
                )
                await pilot.press("1")
                await _idle(pilot)
                figures["switch back (all)"] = await _timed(pilot, frames, lambda: keys("6"))
                text = pretty_json(artifact_value(run.result))
                grown = rss_mb() - before
    finally:
        agent.stop()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "ms": figures,
        "rss_mb": peak_mb,
        "grown_mb": grown,
        "chars": len(text),
        "lines": text.count("\n") + 1,
    }


def child(which: str) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter (its own peak RSS)."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", which],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    if done.returncode != 0:
        raise SystemExit(f"{which} child failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(rounds: int) -> None:
    runs: dict[str, list[dict[str, Any]]] = {"small": [], "large": []}
    for i in range(rounds):
        order = ("small", "large") if i % 2 == 0 else ("large", "small")
        for which in order:
            runs[which].append(child(which))
    small, large = runs["small"], runs["large"]
    print(
        f"baseline: the Appendix B result ({small[0]['chars']:,} chars pretty); "
        f"candidate: --fault large-result ({large[0]['chars']:,} chars, "
        f"{large[0]['lines']:,} lines); median of {rounds} rounds, ms"
    )
    print(f"{'redraw':<20}{'baseline':>10}{'5 MB':>10}{'ratio':>8}{'5 MB idle':>12}")
    for name in REDRAWS:
        base = statistics.median(r["ms"][name][0] for r in small)
        big = statistics.median(r["ms"][name][0] for r in large)
        idle = statistics.median(r["ms"][name][1] for r in large)
        ratio = f"{big / base:>7.1f}x" if base > 0 else "     n/a"
        print(f"{name:<20}{base:>10.1f}{big:>10.1f}{ratio}{idle:>12.1f}")
    every = [r["ms"][name][0] for r in large for name in REDRAWS]
    base_every = [r["ms"][name][0] for r in small for name in REDRAWS if r["ms"][name][0] > 0]
    worst, median = max(every), statistics.median(every)
    ratio = median / statistics.median(base_every)
    verdict = "meets" if worst < GOAL_MS else "MISSES"
    print(
        f"5 MB: worst redraw {worst:.1f} ms, median {median:.1f} ms ({ratio:.2f}x the "
        f"baseline's median; every redraw of every round); goal every redraw < "
        f"{GOAL_MS:.0f} ms: {verdict}"
    )
    base_rss = max(r["rss_mb"] for r in small)
    big_rss = max(r["rss_mb"] for r in large)
    verdict = "meets" if big_rss < GOAL_RSS_MB else "MISSES"
    print(
        f"peak RSS: {big_rss:.0f} MB with the 5 MB artifact, {base_rss:.0f} MB baseline "
        f"({big_rss / base_rss:.2f}x); goal < {GOAL_RSS_MB:.0f} MB: {verdict}"
    )
    grown = statistics.median(r["grown_mb"] for r in large)
    print(
        f"(the peak is the whole process: the agent in it, the invoke and the autosave; "
        f"the Results redraws themselves added {grown:.0f} MB of RSS)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        fault = None if sys.argv[2] == "small" else "large-result"
        print(json.dumps(asyncio.run(measure(fault))))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
