"""Fixtures of the end-to-end suite: the installed console script, private user dirs, a
terminal factory and ``serve-demo`` as a user starts it. Each test gets its own of all of
them, so the suite runs under xdist like any other directory."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import WAIT_SECONDS, Home, StartTerminal, Terminal, installed_sia_tui


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """A user of their own: HOME, XDG dirs and a working directory under tmp_path (the
    SIA_TUI_* and XDG_* variables of the test run are left out)."""
    root = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not _leaks(k)}
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[name] = str(root / name.lower())
    env.update(HOME=str(root), TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    cwd = tmp_path / "work"
    cwd.mkdir()
    return Home(root, cwd, env)


def _leaks(name: str) -> bool:
    """Variables that would make the app use the test runner's dirs, size or looks."""
    return name.startswith(("SIA_TUI_", "TEXTUAL", "PYTEST_", "XDG_", "LC_")) or name in {
        "COLUMNS",
        "LINES",
        "NO_COLOR",
        "FORCE_COLOR",
        "TMUX",
        "HOME",
        "TERM",
    }


@pytest.fixture
def terminal(home: Home) -> Iterator[StartTerminal]:
    """``terminal("demo", cols=80, rows=24)``: ``sia-tui demo`` in a pty of that size."""
    started: list[Terminal] = []

    def start(*args: str, cols: int = 80, rows: int = 24) -> Terminal:
        term = Terminal(
            [installed_sia_tui(), *args], env=home.env, cwd=home.cwd, cols=cols, rows=rows
        )
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


@pytest.fixture
def serve_demo(home: Home) -> Iterator[Callable[..., str]]:
    """``serve_demo("--ask", "input")``: the reference agent as ``sia-tui serve-demo``
    starts it, on 127.0.0.1 and a free port (it prints its URL first); stopped after."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> str:
        proc = subprocess.Popen(
            [installed_sia_tui(), "serve-demo", *args],
            env=home.env,
            cwd=home.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(proc)
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), proc.stderr.read() if proc.stderr else url
        return url

    yield start
    for proc in started:
        proc.terminate()
        _, err = proc.communicate(timeout=WAIT_SECONDS)
        assert "Traceback" not in err, err
