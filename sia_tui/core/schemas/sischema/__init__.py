"""The trusted local Skill Interface Schema, read from the package (RULES SID7)."""

from __future__ import annotations

import json
import pkgutil
from functools import lru_cache
from typing import Any

#: File name of the shipped schema for interface version 1.0.
SCHEMA_FILE = "skill-interface-v1.json"


@lru_cache(maxsize=1)
def _schema_text() -> str:
    # pkgutil reads through the package's loader, as importlib.resources does, without
    # importing the resource readers (zipfile and more: milliseconds on every `check`).
    data = pkgutil.get_data(__package__, SCHEMA_FILE)
    if data is None:  # a loader that cannot read package data
        raise FileNotFoundError(f"{__package__}/{SCHEMA_FILE}")
    return data.decode("utf-8")


def load_skill_interface_schema() -> dict[str, Any]:
    """A fresh copy of the shipped schema; never fetched from the network (RULES SID7)."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema
