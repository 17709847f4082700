"""The trusted local Skill Interface Schema, read from the package (RULES SID7)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

#: File name of the shipped schema for interface version 1.0.
SCHEMA_FILE = "skill-interface-v1.json"


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def load_skill_interface_schema() -> dict[str, Any]:
    """A fresh copy of the shipped schema; never fetched from the network (RULES SID7)."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema
