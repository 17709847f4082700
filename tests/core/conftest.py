"""Fixtures for the core tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.documents import make_document


@pytest.fixture
def document() -> dict[str, Any]:
    """A fresh valid document per test (tests mutate it)."""
    return make_document()
