"""Placeholder: the owning work item replaces this module with its subcommands."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: "argparse._SubParsersAction[Any]") -> None:
    """Register nothing yet."""
