"""Per-user TUI files survive concurrent sia-tui processes; a crashing app exits non-zero."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    """Issue 17: a shared temp name made about one save in three fail with FileNotFoundError."""
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
    """Issue 17: the crashed `sia-tui demo` exited with status 0."""
    assert run_app(_CrashesOnMount(), headless=True) == 1
