"""Generate SVG (and PNG, with rsvg-convert) screenshots of every screen into screenshots/.

Run: ``uv run python scripts/screenshots.py [NAME ...]`` (all, or only the named ones, e.g.
``19-probe``, ``20-matrix``). Starts reference agents on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import Fault
from sia_tui.agent.runner import start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.model import Target
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.matrix import load_plugfest
from sia_tui.core.session import history, load_session, save_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.matrix_app import MatrixApp
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.matrix import MatrixLaunch, MatrixMode
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.target_header import stable_location

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SIZE = (120, 36)
APPENDIX_B = """{
  "resource_id": "network-resource-123",
  "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"}
}"""

Drive = Callable[[Pilot[Any]], Awaitable[None]]


async def settle(pilot: Pilot[Any]) -> None:
    """Wait for the engine, then hide transient toasts."""
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    pilot.app.clear_notifications()
    await pilot.pause()


async def type_arguments(pilot: Pilot[Any], text: str) -> None:
    """Put ``text`` in the argument editor and wait for its validation."""
    await pilot.press("5")
    screen = pilot.app.screen
    assert isinstance(screen, InvokeScreen)
    screen.query_one(ArgumentEditor).load_text(text)
    await pilot.pause(0.4)
    await settle(pilot)


async def recorded_session(url: str, folder: Path) -> Path:
    """Steps 1-6 against ``url`` with the engine, saved as a session file in ``folder``."""
    procedure = Procedure(Target(url, skill_id="evaluate_resource_condition"), ClientOptions())
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    path = folder / "recorded.session.json"
    save_session(run, ClientOptions(), path)
    return path


async def shoot(
    name: str,
    drive: Drive,
    *,
    fault: Fault | None = None,
    theme: str | None = None,
    connect: bool = True,
    session: bool = False,
) -> Path:
    """Run one app against a fresh agent, drive it, save ``screenshots/<name>.svg``."""
    agent = start_agent(AgentConfig(fault=fault, step_delay=0.05))
    try:
        with tempfile.TemporaryDirectory() as home:
            dirs = UserDirs(Path(home) / "config", Path(home) / "data")
            # The history lives under the data dir: keep the user's own out of screenshots.
            os.environ["SIA_TUI_DATA_DIR"] = str(Path(home) / "data")
            target = Target(agent.url) if connect else None
            loaded = None
            if session:
                loaded = load_session(await recorded_session(agent.url, Path(home)))
                agent.stop()  # a read-only session needs no agent
            app = SiaApp(
                target if loaded is None else None, dirs=dirs, snapshot_mode=True, session=loaded
            )
            async with app.run_test(size=SIZE) as pilot:
                if theme:
                    app.theme = theme
                await settle(pilot)
                await drive(pilot)
                await settle(pilot)
                path = Path(app.save_screenshot(f"{name}.svg", str(OUT)))
    finally:
        agent.stop()
    return path


async def nothing(_pilot: Pilot[Any]) -> None:
    """Leave the screen as it opened."""


def keys(*names: str) -> Drive:
    """A driver that presses ``names`` and waits after each."""

    async def drive(pilot: Pilot[Any]) -> None:
        for name in names:
            await pilot.press(name)
            await settle(pilot)

    return drive


async def invoke(pilot: Pilot[Any]) -> None:
    """Run steps 1-6, type the Appendix B arguments, invoke."""
    await keys("2", "r")(pilot)
    await type_arguments(pilot, APPENDIX_B)
    await pilot.press("ctrl+j")


async def bad_arguments(pilot: Pilot[Any]) -> None:
    """Steps 1-6, then a threshold that is a string."""
    await keys("2", "r")(pilot)
    await type_arguments(pilot, APPENDIX_B.replace("80", '"eighty"'))


async def autosaved_failure(pilot: Pilot[Any]) -> None:
    """Run the steps, put the run in the history (snapshot mode never autosaves), open 7."""
    await keys("2", "r")(pilot)
    run = pilot.app.current_run  # type: ignore[attr-defined]
    history.autosave(run, ClientOptions())
    await keys("7")(pilot)


async def look_alike(pilot: Pilot[Any]) -> None:
    """Mode 8 with the look-alike pair, composed."""
    await keys("8")(pilot)
    pilot.app.screen.query_one("#left-skill", Input).value = "measure_link_capacity"
    pilot.app.screen.query_one("#right-skill", Input).value = "admit_traffic_demand"
    await keys("f5")(pilot)
    for side in ("left", "right"):  # the fields hold the real port; hide it once sent
        field = pilot.app.screen.query_one(f"#{side}-card", Input)
        field.value = stable_location(field.value, snapshot_mode=True)
    await settle(pilot)


async def failed_probe(pilot: Pilot[Any]) -> None:
    """Mode 9, probes run, the failing one selected."""
    await keys("9", "p")(pilot)
    await keys("end", "up")(pilot)


SHOTS: list[tuple[str, Drive, dict[str, Any]]] = [
    ("01-connect", nothing, {"connect": False}),
    ("02-overview", nothing, {}),
    ("03-steps", keys("2", "r"), {}),
    ("04-step-failed-digest-card", keys("2", "r"), {"fault": Fault.DIGEST_CARD}),
    ("05-digests", keys("2", "r", "3"), {}),
    ("06-digests-mismatch", keys("2", "r", "3"), {"fault": Fault.DIGEST_CARD}),
    ("07-document", keys("2", "r", "4", "down"), {}),
    ("08-document-authority", keys("2", "r", "4", "end"), {}),
    ("09-editor-error", bad_arguments, {}),
    ("10-results", invoke, {}),
    ("11-error-task", invoke, {"fault": Fault.MISMATCH}),
    ("12-help", keys("2", "r", "f1"), {}),
    ("13-markup-fault", nothing, {"fault": Fault.MARKUP}),
    ("14-theme-light", keys("2", "r"), {"theme": "sia-light"}),
    (
        "15-theme-high-contrast",
        keys("2", "r"),
        {"fault": Fault.DIGEST_CARD, "theme": "sia-high-contrast"},
    ),
    ("16-history", autosaved_failure, {"fault": Fault.DIGEST_CARD}),
    ("17-compose", look_alike, {}),
    ("18-session-readonly", nothing, {"fault": Fault.DIGEST_CARD, "session": True}),
    ("19-probe", failed_probe, {"fault": Fault.IGNORES_MAX_INPUT}),
]


#: The plugfest of the matrix screenshot: four vendors (reference agents), three skills.
PLUGFEST_VENDORS = {
    "vendor-a": None,
    "vendor-b": Fault.DIGEST_CARD,
    "vendor-c": Fault.OUTPUT_INVALID,
    "vendor-d": Fault.V03,
}
PLUGFEST_TAIL = """
[[skill]]
id = "evaluate_resource_condition"
[[skill]]
id = "measure_available_bandwidth"
[[skill]]
id = "admit_traffic_demand"
arguments = "available-bandwidth.json"
[[expect]]
agent = "vendor-b"
step = 4
reason = "ticket 12: the card advertises a stale digest"
"""


async def shoot_matrix(name: str) -> Path:
    """``sia-tui matrix`` over four reference agents, finished, a failed cell selected."""
    agents = {
        vendor: start_agent(AgentConfig(fault=fault, step_delay=0.05))
        for vendor, fault in PLUGFEST_VENDORS.items()
    }
    try:
        with tempfile.TemporaryDirectory() as home:
            folder = Path(home)
            (folder / "available-bandwidth.json").write_text(
                '{"link_id": "link-7", "value": 250, "unit": "Mbit/s"}', encoding="utf-8"
            )
            lines = ['name = "IETF hackathon table 7"']
            for vendor, agent in agents.items():
                lines += ["[[agent]]", f'name = "{vendor}"', f'card = "{agent.url}"']
            path = folder / "PLUGFEST.toml"
            path.write_text("\n".join(lines) + PLUGFEST_TAIL, encoding="utf-8")
            dirs = UserDirs(folder / "config", folder / "data")
            launch = MatrixLaunch(load_plugfest(path), folder / "sessions")
            app = MatrixApp(launch, dirs=dirs, snapshot_mode=True)
            async with app.run_test(size=SIZE) as pilot:
                screen = app.screen
                assert isinstance(screen, MatrixMode)
                while screen.matrix is None or not screen.matrix.finished:
                    await pilot.pause(0.05)
                await settle(pilot)
                table = screen.query_one("#matrix", DataTable)
                table.cursor_coordinate = Coordinate(6, 3)  # vendor-c, JSONRPC sync: a failure
                await settle(pilot)
                return Path(app.save_screenshot(f"{name}.svg", str(OUT)))
    finally:
        for agent in agents.values():
            agent.stop()


def finish(svg: Path, converter: str | None) -> None:
    """Make the SVG keep its spaces, then write the PNG next to it."""
    # Rich writes indentation as leading no-break spaces, which SVG renderers such as
    # rsvg trim unless told to preserve them: the PNGs then lose every indent.
    svg.write_text(
        svg.read_text(encoding="utf-8").replace(
            '<svg class="rich-terminal"', '<svg xml:space="preserve" class="rich-terminal"', 1
        ),
        encoding="utf-8",
    )
    if converter:
        subprocess.run([converter, str(svg), "-o", str(svg.with_suffix(".png"))], check=True)
    print(svg)


async def main(only: list[str]) -> None:
    """Generate every screenshot (or those in ``only``), then PNGs with rsvg-convert."""
    OUT.mkdir(exist_ok=True)
    converter = shutil.which("rsvg-convert")
    for name, drive, options in SHOTS:
        if only and name not in only:
            continue
        finish(await shoot(name, drive, **options), converter)
    if not only or "20-matrix" in only:
        finish(await shoot_matrix("20-matrix"), converter)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
