"""Generate SVG (and PNG, with rsvg-convert) screenshots of every screen into screenshots/.

Run: ``uv run python scripts/screenshots.py [--only NAME ...]`` (all, or only the named
ones, e.g. ``19-probe``, ``20-matrix``). Starts reference agents (and, for the plain A2A
console, an a2a-sdk agent without the extension) on 127.0.0.1. Every screen is
shot at 120x36 into screenshots/, and at 80x24 (a laptop split) into screenshots/80x24/.
Volatile values are hidden the way the snapshot tests hide them (tests/support/tui.py).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support: the same helpers as the snapshot tests

from sia_tui.agent.config import AgentConfig, Ask  # noqa: E402
from sia_tui.agent.faults import Fault  # noqa: E402
from sia_tui.agent.serving import start_agent  # noqa: E402
from sia_tui.core.a2a.options import ClientOptions  # noqa: E402
from sia_tui.core.engine.procedure import Procedure  # noqa: E402
from sia_tui.core.matrix import load_plugfest  # noqa: E402
from sia_tui.core.run.read_model import Target  # noqa: E402
from sia_tui.core.session import load_session, save_session  # noqa: E402
from sia_tui.tui.matrix_app import MatrixApp  # noqa: E402
from sia_tui.tui.screens.matrix import MatrixLaunch, MatrixMode  # noqa: E402
from sia_tui.tui.storage import UserDirs  # noqa: E402
from tests.support.sdk_echo_agent import running_echo_agent  # noqa: E402
from tests.support.tui import (  # noqa: E402
    APPENDIX_B_TEXT,
    SIZE,
    SMALL,
    enter_arguments,
    send_on_console,
    settle,
    snapshot_app,
    snapshot_scrub,
)

OUT = ROOT / "screenshots"

Drive = Callable[[Pilot[Any]], Awaitable[None]]


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


@contextmanager
def agent_url(
    agent: str, fault: Fault | None, ask: Ask | None = None, push: str = "off"
) -> Iterator[str]:
    """The reference agent (``agent="reference"``, asking once with ``ask``, pushing with
    ``push``) or the a2a-sdk echo agent ("sdk")."""
    if agent == "sdk":
        with running_echo_agent() as url:
            yield url
        return
    running = start_agent(AgentConfig(fault=fault, step_delay=0.05, ask=ask, push=push))
    try:
        yield running.url
    finally:
        running.stop()


async def shoot(
    name: str,
    drive: Drive,
    size: tuple[int, int],
    folder: Path,
    *,
    fault: Fault | None = None,
    theme: str | None = None,
    connect: bool = True,
    session: bool = False,
    agent: str = "reference",
    ask: Ask | None = None,
    push: str = "off",
) -> Path:
    """Run one app against a fresh agent, drive it, save ``folder/<name>.svg``."""
    with agent_url(agent, fault, ask, push) as url, tempfile.TemporaryDirectory() as home:
        dirs = UserDirs(Path(home) / "config", Path(home) / "data")
        # The history lives under the data dir: keep the user's own out of screenshots.
        os.environ["SIA_TUI_DATA_DIR"] = str(dirs.data)
        loaded = load_session(await recorded_session(url, Path(home))) if session else None
        target = Target(url) if connect and loaded is None else None
        app = snapshot_app(target, dirs=dirs, session=loaded)
        async with app.run_test(size=size) as pilot:
            if theme:
                app.theme = theme
            await settle(pilot)
            await drive(pilot)
            await settle(pilot)
            return Path(app.save_screenshot(f"{name}.svg", str(folder)))


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
    await enter_arguments(pilot, APPENDIX_B_TEXT)
    await pilot.press("ctrl+j")


async def invoke_with_push(pilot: Pilot[Any]) -> None:
    """Steps 1-6, the Appendix B arguments, Push checked, invoke: Results with the timeline."""
    await keys("2", "r")(pilot)
    screen = await enter_arguments(pilot, APPENDIX_B_TEXT)
    screen.action_toggle_push()
    await pilot.press("ctrl+j")


async def agent_tasks(pilot: Pilot[Any]) -> None:
    """After one invocation, the agent's tasks (ListTasks) from History."""
    await invoke(pilot)
    await settle(pilot)
    await keys("7", "t")(pilot)


async def bad_arguments(pilot: Pilot[Any]) -> None:
    """Steps 1-6, then a threshold that is a string."""
    await keys("2", "r")(pilot)
    await enter_arguments(pilot, APPENDIX_B_TEXT.replace("80", '"eighty"'))


async def look_alike(pilot: Pilot[Any]) -> None:
    """Mode 8 with the look-alike pair, composed."""
    await keys("8")(pilot)
    pilot.app.screen.query_one("#left-skill", Input).value = "measure_link_capacity"
    pilot.app.screen.query_one("#right-skill", Input).value = "admit_traffic_demand"
    await keys("f5")(pilot)
    for side in ("left", "right"):  # the fields hold the real port; hide it once sent
        field = pilot.app.screen.query_one(f"#{side}-card", Input)
        field.value = snapshot_scrub(field.value)
    await settle(pilot)


async def failed_probe(pilot: Pilot[Any]) -> None:
    """Mode 9, probes run, the failing one selected."""
    await keys("9", "p")(pilot)
    await keys("end", "up")(pilot)


async def console_echo(pilot: Pilot[Any]) -> None:
    """The console on the a2a-sdk agent: a data part sent in stream mode."""
    await keys("0")(pilot)
    await send_on_console(pilot, '{"hello": "plugfest"}', part="data", mode="stream")


async def answering(pilot: Pilot[Any]) -> None:
    """Invoke an agent that asks first, and type the reply (not sent yet)."""
    await invoke(pilot)
    await settle(pilot)
    field = pilot.app.screen.query_one("#reply-input", Input)
    field.focus()
    field.value = "north hall"


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
    ("16-history", keys("2", "r", "7"), {"fault": Fault.DIGEST_CARD}),
    ("17-compose", look_alike, {}),
    ("18-session-readonly", nothing, {"fault": Fault.DIGEST_CARD, "session": True}),
    ("19-probe", failed_probe, {"fault": Fault.IGNORES_MAX_INPUT}),
    ("21-overview-plain-a2a", nothing, {"agent": "sdk"}),
    ("22-console", console_echo, {"agent": "sdk"}),
    ("23-multi-turn", answering, {"ask": "input"}),
    ("24-push-timeline", invoke_with_push, {"push": "on"}),
    ("25-agent-tasks", agent_tasks, {}),
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


async def shoot_matrix(name: str, size: tuple[int, int], folder_out: Path) -> Path:
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
            app = MatrixApp(launch, dirs=dirs, scrub=snapshot_scrub)
            app.animation_level = "none"
            async with app.run_test(size=size) as pilot:
                screen = app.screen
                assert isinstance(screen, MatrixMode)
                while screen.matrix is None or not screen.matrix.finished:
                    await pilot.pause(0.05)
                await settle(pilot)
                table = screen.query_one("#matrix", DataTable)
                table.cursor_coordinate = Coordinate(6, 3)  # vendor-c, JSONRPC sync: a failure
                await settle(pilot)
                return Path(app.save_screenshot(f"{name}.svg", str(folder_out)))
    finally:
        for agent in agents.values():
            agent.stop()


def fix_and_convert(svg: Path, converter: str | None) -> None:
    """Keep the indentation in PNGs, then convert."""
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


async def main() -> None:
    """Generate every screenshot at both sizes (``--only NAME`` for some), then PNGs."""
    only = set(sys.argv[sys.argv.index("--only") + 1 :]) if "--only" in sys.argv else set()
    converter = shutil.which("rsvg-convert")
    for size, folder in ((SIZE, OUT), (SMALL, OUT / "80x24")):
        folder.mkdir(parents=True, exist_ok=True)
        for name, drive, options in SHOTS:
            if only and name not in only:
                continue
            svg = await shoot(name, drive, size, folder, **options)
            fix_and_convert(svg, converter)
            print(svg)
        if not only or "20-matrix" in only:
            svg = await shoot_matrix("20-matrix", size, folder)
            fix_and_convert(svg, converter)
            print(svg)


if __name__ == "__main__":
    asyncio.run(main())
