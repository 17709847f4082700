"""JSON as text for reading: indented, bodies decoded leniently. No highlighting here, so the
screens that only need text do not load pygments (``highlight.py`` colours it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

#: Above this size a body is not parsed for the pretty view: parsing a multi-megabyte
#: artifact on the UI thread would stall every keystroke (the raw text is shown instead).
PRETTY_LIMIT = 1024 * 1024


def pretty_json(value: Any) -> str:
    """Indented JSON with non-ASCII kept (what a person reads)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def pretty_chunks(value: Any) -> Iterator[str]:
    """``pretty_json(value)`` in pieces, produced as they are read (a big value's first
    lines can be shown before the rest is formatted)."""
    return json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(value)


def body_text(body: bytes) -> str:
    """Raw bytes as text for display (invalid UTF-8 shown with replacement characters)."""
    return body.decode("utf-8", errors="replace")


def pretty_body(body: bytes) -> str:
    """The body pretty-printed when it is JSON (and not huge), else the raw text."""
    text = body_text(body)
    if len(body) > PRETTY_LIMIT:
        return text
    try:
        return pretty_json(json.loads(text))
    except (ValueError, RecursionError):
        return text
