"""Fixtures for session tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private history data dir (RULES: tests never touch the user's data dir)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(folder))
    yield folder
