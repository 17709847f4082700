"""The A2A revisions whose wire sia-tui checks, and their shipped JSON Schemas."""

from __future__ import annotations

import json
import pkgutil
from functools import cache
from typing import Any

#: The A2A revision sia-tui speaks, and the one it tolerates (RULES: docs/WIRE-CHECKS.md).
A2A_1_0 = "1.0"
A2A_0_3 = "0.3"
REVISIONS = (A2A_1_0, A2A_0_3)


def schema_file(revision: str) -> str:
    """The package data file of a revision's wire schema."""
    return f"a2a-{revision}.schema.json"


def schema_id(revision: str) -> str:
    """The ``$id`` of a revision's wire schema (a name, never fetched: RULES SR7)."""
    return f"urn:sia-tui:a2a-wire:{revision}"


@cache
def wire_schema_text(revision: str) -> str:
    """The shipped schema of ``revision``, read through the package's loader."""
    data = pkgutil.get_data(__package__, schema_file(revision))
    if data is None:  # a loader that cannot read package data
        raise FileNotFoundError(f"{__package__}/{schema_file(revision)}")
    return data.decode("utf-8")


def wire_schema(revision: str) -> dict[str, Any]:
    """A fresh copy of the shipped schema of ``revision``."""
    schema: dict[str, Any] = json.loads(wire_schema_text(revision))
    return schema
