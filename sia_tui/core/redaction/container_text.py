"""A large JSON value written once, each container knowing where its own text lies.

Redaction asks every container on its way down whether anything in it can change, by one
scan of the container's JSON text (:meth:`Redactor._may_change`). Writing each container
again costs the value's size once per level: a 5 MB result seven levels deep was written
and searched about 20 times (98 MB, 2.4 s of a 2.9 s save). Here the text is written once;
a container's text is the span of it that ``json.dumps`` of the container alone would
write, and a search from one position answers every container that starts before the
match it found (the walk asks in document order, so the text is read about once).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

#: ``find(text, start)``: where the first thing looked for begins at or after ``start``
#: (-1: nowhere). It must not look behind ``start``: what it finds there is what a search
#: of the container's text alone finds (no ``^`` or lookbehind in the patterns).
Finder = Callable[[str, int], int]
#: Containers written member by member (exact types: a subclass is written whole by
#: ``json.dumps`` and its members' texts are not known here).
_NESTED = (dict, list, tuple)
#: A container with more members is written whole, in C: its members are asked about in
#: chunks (``Redactor._members``), so their own spans would not be used.
MAX_MEMBERS_APART = 128


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _has_nested(members: Any) -> bool:
    return any(type(member) in _NESTED for member in members)


class ContainerTexts:
    """``json.dumps(root, ensure_ascii=False)`` and the span of every container in it that
    holds another container (those holding only scalars are written whole by the C
    encoder, with their span). Raises what ``json.dumps`` raises (``RecursionError``
    sooner: it writes nesting with Python calls)."""

    def __init__(self, root: Any) -> None:
        pieces: list[str] = []
        self._spans: dict[int, tuple[int, int]] = {}
        self._write(root, pieces, 0)
        self.text = "".join(pieces)
        #: finder's key -> (searched from, found at or -1), the last search of each kind.
        self._last: dict[object, tuple[int, int]] = {}

    def span(self, value: Any) -> tuple[int, int] | None:
        """``(start, end)`` of ``value``'s own text, if it is a container of the root."""
        return self._spans.get(id(value))

    def found(self, key: object, find: Finder, start: int, end: int) -> bool:
        """True when ``find`` finds something that begins in ``[start, end)``; never False
        where a search of ``text[start:end]`` alone finds something (it begins at or after
        ``start`` in the whole text too). The last search is reused while ``start`` lies
        between where it began and what it found."""
        last = self._last.get(key)
        if last is None or not (last[0] <= start and (last[1] < 0 or last[1] >= start)):
            last = (start, find(self.text, start))
            self._last[key] = last
        return 0 <= last[1] < end

    def _write(self, value: Any, pieces: list[str], at: int) -> int:
        """Append ``value``'s JSON text at offset ``at``; return the offset after it."""
        kind = type(value)
        start = at
        apart = len(value) <= MAX_MEMBERS_APART if kind in _NESTED else False
        if (
            kind is dict
            and apart
            and all(type(k) is str for k in value)
            and _has_nested(value.values())
        ):
            pieces.append("{")
            at += 1
            for i, (key, member) in enumerate(value.items()):
                head = ("" if i == 0 else ", ") + _dumps(key) + ": "
                pieces.append(head)
                at = self._write(member, pieces, at + len(head))
            pieces.append("}")
            at += 1
        elif (kind is list or kind is tuple) and apart and _has_nested(value):
            pieces.append("[")
            at += 1
            for i, member in enumerate(value):
                if i:
                    pieces.append(", ")
                    at += 2
                at = self._write(member, pieces, at)
            pieces.append("]")
            at += 1
        else:
            text = _dumps(value)
            pieces.append(text)
            at += len(text)
        if kind in _NESTED:
            self._spans.setdefault(id(value), (start, at))
        return at
