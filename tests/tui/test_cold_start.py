"""Starting `sia-tui open URL` quickly: step 1 runs before the first screen is built, and
the card reaches the screen with only that screen's modules loaded (the other screens,
pygments, the validators and the reference agent load on first use)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from textual.widgets import Static

from sia_tui.core.run.read_model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.engine_port import build_procedure
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent

AGENT_NAME = "sia-tui reference agent"


async def test_step_one_starts_before_the_first_screen_is_built(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """The card is fetched while Textual starts: on a quick agent the first frame shows it
    (before, the empty Overview was drawn first, then drawn again with the card)."""
    agent = reference_agent()
    screens_when_built: list[int] = []  # how many screens were mounted then

    def factory(*args: Any, **kwargs: Any) -> Any:
        screens_when_built.append(sum(screen.is_mounted for screen in app.screen_stack))
        return build_procedure(*args, **kwargs)

    app = SiaApp(Target(agent.url), engine_factory=factory, dirs=user_dirs)
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screens_when_built == [0]
        assert AGENT_NAME in str(app.screen.query_one("#card-body", Static).visual)


async def test_garbage_collection_pauses_only_until_the_first_frame(
    reference_agent: StartAgent, user_dirs: UserDirs
) -> None:
    """Start-up pauses collection (it makes no garbage); a long session must not go on
    without it, nor a test process after an app that ended early."""
    assert gc.isenabled()
    paused_while_loading: list[bool] = []
    app = SiaApp(Target(reference_agent().url), dirs=user_dirs)
    app.call_later(lambda: paused_while_loading.append(not gc.isenabled()))
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert paused_while_loading == [True]
        assert gc.isenabled()  # collecting again since the first frame
    assert gc.isenabled()


# `sia-tui open URL` in a fresh interpreter, headless, until the card is on screen; then it
# prints every loaded module and quits.
PROBE = """
import json, sys
from sia_tui.cli import cmd_tui, main

real_run_app = cmd_tui.run_app

def run_app(app, *, headless=False):
    async def until_shown(pilot):
        while not (
            (bodies := app.screen.query("#card-body"))
            and sys.argv[2] in str(bodies.first().visual)
        ):
            await pilot.pause(0.01)
        loaded = sorted(name for name, module in sys.modules.items() if module is not None)
        print(json.dumps(loaded), file=sys.__stdout__)
        app.exit()

    run = app.run
    app.run = lambda **_: run(headless=True, auto_pilot=until_shown)
    return real_run_app(app)

cmd_tui.run_app = run_app
main(["open", sys.argv[1]])
"""

#: What the card on the Overview never needs.
NOT_AT_START = (
    "pygments",
    "rich.syntax",
    "jsonschema",
    "jsonschema_rs",
    "referencing",
    "rfc8785",
    "starlette",
    "uvicorn",
    "sia_tui.agent",
    "sia_tui.core.schemas.validation",
    "sia_tui.core.session.store",
    "sia_tui.tui.highlight",
    # JOSE loads only when a signature is verified or made (docs/TRUST.md).
    "joserfc",
    "cryptography",
    # The card lists a GRPC interface; the TUI starts on JSON-RPC without grpc.
    "grpc",
    "google.protobuf",
    # Step 1 runs alone until the user asks for more: the modules of steps 2-11, the
    # console, ListTasks and the contract lock's document diff load when first used.
    "sia_tui.core.engine.steps.verification",
    "sia_tui.core.engine.steps.invocation",
    "sia_tui.core.engine.steps.results",
    "sia_tui.core.engine.console",
    "sia_tui.core.engine.task_list",
    "sia_tui.core.trust.lock_compare",
    "sia_tui.core.interface.document_diff",
    # Step 1 checks no skill interface document: its checks (and the canonical form and
    # schema dialects they use), steps 2-11's evidence and the values some answers return
    # load when step 2 or an answer first needs them.
    "sia_tui.core.interface.document",
    "sia_tui.core.schemas",
    "sia_tui.core.jsonkit.canonical",
    "sia_tui.core.run.later_evidence",
    "sia_tui.core.run.answer_types",
    # The card's views only: what a task exchanges (messages, artifacts, tasks, stream
    # events) and their readers load with the first task; each frozen dataclass costs
    # some 0.5 ms to create.
    "sia_tui.core.a2a.task_views",
    "sia_tui.core.a2a.objects",
    # The Overview has no table (LiteralTable is in a module of its own).
    "textual.widgets._data_table",
    # The run model's types an unsigned card never meets load with a signed card, anchors
    # or a lock, push, a question, a plain message or a negative test; the session
    # history with the History screen (session/dataclass_json.DEFERRED_TYPES).
    "sia_tui.core.trust.records",
    "sia_tui.core.trust.card_fields",
    "sia_tui.core.run.push_log",
    "sia_tui.core.a2a.push.receiver",
    "sia_tui.core.engine.push",
    "sia_tui.core.run.turns",
    "sia_tui.core.run.plain",
    "sia_tui.core.run.refusal",
    "sia_tui.core.run.agent_answer",
    "sia_tui.core.session.history",
    "sia_tui.core.session.dataclass_json",
)
#: The screens package holds the base and the first screen only.
FIRST_SCREEN = ("sia_tui.tui.screens", "sia_tui.tui.screens.base", "sia_tui.tui.screens.overview")


def test_the_card_on_screen_loads_only_the_first_screen(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    agent = reference_agent(grpc_port=0)
    env = os.environ | {
        "SIA_TUI_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, agent.url, AGENT_NAME],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    modules: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    assert "sia_tui.tui.screens.overview" in modules  # the probe saw the card
    unneeded = [m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_AT_START)]
    assert unneeded == []
    screens = [m for m in modules if m.startswith("sia_tui.tui.screens")]
    assert sorted(screens) == sorted(FIRST_SCREEN)


def test_what_the_tui_loads_is_kept_out_of_the_collections_before_the_card() -> None:
    """The modules `open` loads live as long as the process: frozen as loading ends, so
    the first young collection after it does not walk every one of them (it did, some
    11 ms before the card was on screen). Run in a fresh interpreter: freezing is for
    the process."""
    script = (
        "import gc\n"
        "from sia_tui.cli.cmd_tui import _loading_modules\n"
        "frozen = gc.get_freeze_count()\n"
        "with _loading_modules():\n"
        "    loaded = [[] for _ in range(5000)]  # as a module's classes and tables are\n"
        "print(gc.get_freeze_count() - frozen, gc.isenabled())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    newly_frozen, collecting = done.stdout.split()
    assert int(newly_frozen) >= 5000
    assert collecting == "True"  # collection resumes after loading
