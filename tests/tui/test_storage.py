"""Per-user TUI files: where they live, what goes in them, concurrent processes; a crashing
app exits non-zero."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from sia_tui.cli.cmd_tui import run_app

_WRITER = """
import sys
from pathlib import Path
from sia_tui.tui.storage import UserDirs
dirs = UserDirs(Path(sys.argv[1]), Path(sys.argv[1]))
for n in range(300):
    dirs.save_setting("theme", f"{sys.argv[2]}-{n}")
    dirs.remember_target(f"http://127.0.0.1:{n}")
"""


def test_two_processes_saving_settings_at_once_never_crash(tmp_path: Path) -> None:
    """A shared temp name made about one save in three fail with FileNotFoundError."""
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(tmp_path), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    settings = json.loads((tmp_path / "tui.json").read_text(encoding="utf-8"))
    assert settings["theme"] in {"a-299", "b-299"}
    assert list(tmp_path.glob("*.tmp")) == [], "no temp file is left behind"


class _CrashesOnMount(App[None]):
    def on_mount(self) -> None:
        raise RuntimeError("boom")


def test_a_crash_inside_the_app_exits_non_zero() -> None:
    """A crash must not pass for success: the crashed `sia-tui demo` exited with status 0."""
    assert run_app(_CrashesOnMount(), headless=True) == 1


def test_sia_tui_data_dir_moves_recent_targets_with_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIA_TUI_DATA_DIR once moved only the history; recent.json stayed behind."""
    from sia_tui.core.session import history
    from sia_tui.tui.storage import UserDirs

    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(tmp_path / "portable"))
    dirs = UserDirs.default()
    dirs.remember_target("http://agent.example")
    assert (tmp_path / "portable" / "recent.json").is_file()
    assert history.history_dir() == tmp_path / "portable" / "history"


async def test_only_a_target_that_answered_joins_the_recent_targets(
    reference_agent: Any, user_dirs: Any
) -> None:
    """A dead port (a typo, a demo agent that has stopped) never fills the list."""
    from sia_tui.core.run import Target
    from tests.support.tui import SIZE, settle, snapshot_app

    live = reference_agent().url
    for location in ("http://127.0.0.1:1", live):
        app = snapshot_app(Target(location), dirs=user_dirs)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
    assert user_dirs.recent_targets() == [live]


def test_demo_never_remembers_its_port(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sia-tui demo` starts an agent on a port that dies with it: not a recent target."""
    from sia_tui.cli import cmd_tui

    apps: list[Any] = []

    def run_app(app: Any, **_: Any) -> int:
        apps.append(app)
        return 0

    monkeypatch.setattr(cmd_tui, "run_app", run_app)
    assert cmd_tui.demo_main(argparse.Namespace(fault=None)) == 0
    assert [app.remember_targets for app in apps] == [False]
