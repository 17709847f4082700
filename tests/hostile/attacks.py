"""Every attack of the hostile agent, by name (the registry is ``registry.py``)."""

from __future__ import annotations

from tests.hostile import (
    attacks_content,
    attacks_secrets,
    attacks_terminal,
    attacks_tui,
    attacks_wire,
)
from tests.hostile.attacks_content import ARTIFACTS, FLOOD, LISTED_FLOOD
from tests.hostile.registry import ATTACKS, Attack

__all__ = [
    "ARTIFACTS",
    "ATTACKS",
    "FLOOD",
    "LISTED_FLOOD",
    "Attack",
    "attacks_content",
    "attacks_secrets",
    "attacks_terminal",
    "attacks_tui",
    "attacks_wire",
]
