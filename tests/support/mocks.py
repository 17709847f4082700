"""Serving a recorded run as a mock agent in tests (``sia-tui mock``'s engine)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sia_tui.agent.mock import MockConfig, RunningMock, recording, start_mock
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import Run
from sia_tui.core.session import load_session, save_session


def saved(run: Run, options: ClientOptions, folder: Path) -> Path:
    """``run`` saved as a session file in ``folder``."""
    path = folder / "recorded.session.json"
    save_session(run, options, path)
    return path


def mock_config(path: Path, *, loose: bool = False, **changes: Any) -> MockConfig:
    """The mock of the session at ``path``, read as ``sia-tui mock`` reads it."""
    return MockConfig(recording(load_session(path), loose=loose), **changes)


def serve(config: MockConfig, started: list[RunningMock]) -> RunningMock:
    """Start ``config``'s mock on 127.0.0.1 (a free port); ``started`` stops it later."""
    mock = start_mock(config)
    started.append(mock)
    return mock
