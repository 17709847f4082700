"""Fixtures for session tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from sia_tui.agent.mock import RunningMock
from sia_tui.core.redaction.redact import HTTP_LOGGERS, RedactingLogFilter


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private history data dir (RULES: tests never touch the user's data dir)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(folder))
    yield folder


@pytest.fixture
def log_redaction() -> Iterator[None]:
    """The CLI installs the log filter as it starts; remove it afterwards for other tests."""
    yield
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, RedactingLogFilter)]:
            logger.removeFilter(old)


@pytest.fixture
def mocks() -> Iterator[list[RunningMock]]:
    """Mock agents (``sia-tui mock``) a test started, stopped after it."""
    started: list[RunningMock] = []
    yield started
    for each in started:
        each.stop()
