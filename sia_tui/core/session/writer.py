"""The session file's text: its outline one member per line, each deeper value compact.

``json.dumps(indent=...)`` runs the pure-Python encoder: 1.2 s for the 27 MB a run with a
5 MB result makes, against 0.2 s in C without indentation. So the outline a
person reads and diffs (the top-level members, the run's members, each step, each
exchange) is indented, and every value below it is written by the C encoder on one line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

#: Levels written one member per line: the document, its members (``run``,
#: ``exchanges``...), and theirs (each step, each exchange).
OUTLINE_LEVELS = 3

_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def session_text(document: dict[str, Any]) -> str:
    """``document`` as JSON text (the same values as ``json.dumps(document)``)."""
    chunks: list[str] = []
    _write(document, 0, chunks.append)
    return "".join(chunks)


def _write(value: Any, depth: int, out: Callable[[str], object]) -> None:
    if depth >= OUTLINE_LEVELS or not isinstance(value, dict | list | tuple) or not value:
        out(_COMPACT.encode(value))
        return
    pad = "\n" + " " * (depth + 1)
    is_object = isinstance(value, dict)
    out("{" if is_object else "[")
    items: Iterable[tuple[Any, Any]] = (
        value.items() if isinstance(value, dict) else enumerate(value)
    )
    for index, (key, item) in enumerate(items):
        out(("," if index else "") + pad)
        if is_object:
            out(_COMPACT.encode(str(key)) + ": ")
        _write(item, depth + 1, out)
    out("\n" + " " * depth + ("}" if is_object else "]"))
