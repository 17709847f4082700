"""TUI fixtures: an app wired to the reference agent, hermetic user dirs, stable colours."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from sia_tui.core.run.read_model import Target
from sia_tui.tui.app import SiaApp
from sia_tui.tui.storage import UserDirs
from tests.support.tui import snapshot_app


@pytest.fixture(autouse=True)
def _hermetic_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # NO_COLOR / TEXTUAL_THEME from the developer's shell must not change what tests see.
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)


@pytest.fixture
def user_dirs(tmp_path: Path) -> UserDirs:
    """Config and data dirs inside the test's temporary directory."""
    return UserDirs(tmp_path / "config", tmp_path / "data")


@pytest.fixture
def make_app(reference_agent: Any, user_dirs: UserDirs) -> Callable[..., SiaApp]:
    """``make_app(fault=None)``: an app pointed at a fresh reference agent."""

    def build(fault: str | None = None) -> SiaApp:
        agent = reference_agent(fault=fault)
        return snapshot_app(Target(agent.url), dirs=user_dirs)

    return build


RunBefore = Callable[[Pilot[Any]], Awaitable[None]]


@pytest.fixture
def echo_agent_url() -> Iterator[str]:
    """Base URL of a plain A2A agent built with a2a-sdk (no schema-interface extension)."""
    from tests.support.sdk_echo_agent import running_echo_agent

    with running_echo_agent() as url:
        yield url
