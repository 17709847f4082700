"""What the card on the Overview does not load: the run model's types a first screen never
meets (the trust records, push, turns, the plain message, the refusal grader) and the
session history, each loaded when first used (README "Performance")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sia_tui.core.trust import LockStatus, SignatureVerdict
from sia_tui.tui.render.trust import LOCK_STYLE, VERDICT_STYLE
from tests.support.agents import StartAgent
from tests.tui.test_cold_start import AGENT_NAME, PROBE

#: Loaded by a run that meets them (a signed card, a lock, push, a question, a plain
#: message, a negative test), or by the History screen; never by an unsigned card shown.
LOADED_WHEN_USED = (
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


def test_the_card_on_screen_loads_no_record_it_does_not_show(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    agent = reference_agent()
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
    assert [m for m in LOADED_WHEN_USED if m in modules] == []


def test_the_trust_colours_name_every_verdict_and_lock_status() -> None:
    """The tables are keyed by value (the records load only with a signature or a lock):
    each member of the enums has its colour, and nothing else is listed."""
    assert set(VERDICT_STYLE) == {v.value for v in SignatureVerdict}
    assert set(LOCK_STYLE) == {s.value for s in LockStatus}
    assert all(VERDICT_STYLE[v] for v in SignatureVerdict)  # a member finds its value's key
