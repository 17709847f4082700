"""Which schema changes may change what a value means, though validation calls them compatible.

A description that turns a threshold from a percentage into a ratio validates exactly as
before; the diff keeps its verdict and asks a person to read the change (the draft: a field
named "threshold" might be a percentage, a count or a ratio; CMP2 for the same reason refuses
look-alike schemas).
"""

from __future__ import annotations

import re
from typing import Any

#: The sentence every flagged change carries, so a reader (or a grep) finds them all.
REVIEW = "review: meaning may have changed"
#: Annotations whose words carry the meaning of a value.
MEANING_ANNOTATIONS = frozenset({"title", "description", "$comment"})
#: The words of a member name (``time_units``, ``unitOfMeasure``, ``SCALE``).
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
#: A member named with one of these words carries a unit or a scale.
_UNIT_NAMES = frozenset({"unit", "units", "scale", "uom"})
#: Words that name a unit: an enum holding one is an enum of units.
_UNIT_WORDS = frozenset(
    {
        "percent",
        "percentage",
        "pct",
        "%",
        "ratio",
        "fraction",
        "permille",
        "ppm",
        "ms",
        "millisecond",
        "milliseconds",
        "sec",
        "second",
        "seconds",
        "minute",
        "minutes",
        "hour",
        "hours",
        "byte",
        "bytes",
        "kb",
        "mb",
        "gb",
        "kib",
        "mib",
        "gib",
        "bit/s",
        "bps",
        "kbps",
        "mbps",
        "gbps",
        "kbit/s",
        "mbit/s",
        "gbit/s",
        "hz",
        "khz",
        "mhz",
        "ghz",
        "db",
        "dbm",
        "celsius",
        "fahrenheit",
        "kelvin",
    }
)


def _leaf(member: str) -> str:
    """The member's own name: ``condition.unit`` -> ``unit``, ``values[]`` -> ``values``."""
    return member.rsplit(".", 1)[-1].rstrip("[]*.")


def _is_unit_enum(*values: Any) -> bool:
    return any(
        isinstance(v, list) and any(isinstance(x, str) and x.lower() in _UNIT_WORDS for x in v)
        for v in values
    )


def meaning_review(keyword: str, member: str, old: Any, new: Any) -> str | None:
    """The review note for a change of ``keyword`` on ``member``, or None when none is due."""
    if keyword in MEANING_ANNOTATIONS:
        return f"{REVIEW}: the {keyword} changed, read it before relying on the values"
    if keyword not in ("enum", "const"):
        return None
    if any(w.lower() in _UNIT_NAMES for w in _WORDS.findall(_leaf(member))):
        return f"{REVIEW}: '{_leaf(member)}' names a unit or scale and its values changed"
    pair = (old, new) if keyword == "enum" else ([old], [new])
    if _is_unit_enum(*pair):
        return f"{REVIEW}: the values name units, and a unit changed"
    return None
