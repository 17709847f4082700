"""Where in a JSON text a problem sits, found after the C decoder or the walk spotted it.

These scans run in Python over the whole text, so strict loading calls them only once it
knows something is wrong (or a C-level search says something may be). Each one is linear,
even on hostile text: strings are matched possessively.
"""

from __future__ import annotations

import math
import re
from typing import Any

from sia_tui.core import limits
from sia_tui.core.jsonkit.pointer import Segment, walk

_SURROGATE = re.compile("[\ud800-\udfff]")
# A string token is matched possessively and may run to the end of the text when it is
# unterminated: otherwise every later quote restarts a failing scan (quadratic time on
# hostile input such as an endless run of \").
# A string left open ends at the end of the text, after a last lone backslash too: were
# that string not matched, the scan would start it again from each quote inside it.
_BRACKETS = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)|[\[{]|[\]}]', re.DOTALL)
_NUMBER_START = frozenset("-0123456789")
# The longest prefix made of whole strings, other characters and runs of number
# characters no longer than the limit: it ends where a longer run starts (or at an
# unterminated string, or the end). Possessive throughout, so one linear pass in C.
_UP_TO_LONG_NUMBER = re.compile(
    r'(?:[^"\-+.0-9eE]++|"(?:[^"\\]++|\\.)*+"'
    rf"|[-+.0-9eE]{{1,{limits.MAX_NUMBER_CHARS}}}+(?![-+.0-9eE]))*+",
    re.DOTALL,
)


def too_deep_at(text: str, max_depth: int) -> int | None:
    """Offset of the first bracket nested deeper than ``max_depth``, or None."""
    if text.count("[") + text.count("{") <= max_depth:
        return None
    depth = 0
    for match in _BRACKETS.finditer(text):
        char = text[match.start()]
        if char in "[{":
            depth += 1
            if depth > max_depth:
                return match.start()
        elif char in "]}":
            depth -= 1
    return None


def first_long_number(text: str) -> int | None:
    """Offset of the first number literal longer than ``limits.MAX_NUMBER_CHARS``."""
    match = _UP_TO_LONG_NUMBER.match(text)
    stop = match.end() if match is not None else 0  # (it always matches, maybe empty)
    return stop if stop < len(text) and text[stop] in _NUMBER_START else None


def first_overflow(text: str) -> tuple[int, str] | None:
    """Offset and literal of the first number too large for an IEEE-754 double."""
    for token in walk(text):
        if token.kind == "value" and token.word[:1] in _NUMBER_START:
            try:
                if math.isinf(float(token.word)):
                    return token.offset, token.word
            except ValueError:
                continue
    return None


def first_word(text: str, word: str) -> int:
    """Offset of the first bare word (number or literal) equal to ``word``."""
    for token in walk(text):
        if token.kind == "value" and token.word == word:
            return token.offset
    return 0


def first_duplicate(text: str) -> tuple[int, Any]:
    """Offset and name of the first repeated member name, in text order."""
    seen: dict[tuple[Segment, ...], set[Any]] = {}
    for token in walk(text):
        if token.kind == "key":
            names = seen.setdefault(token.path[:-1], set())
            if token.path[-1] in names:
                return token.offset, token.path[-1]
            names.add(token.path[-1])
        elif token.kind == "value" and text[token.offset] == "{":
            seen[token.path] = set()  # a new object at a reused path (array slot)
    return 0, None


def lone_surrogate(value: Any) -> tuple[tuple[Segment, ...], bool] | None:
    """Path of the first string (or key, flagged True) holding a lone surrogate."""
    stack: list[tuple[tuple[Segment, ...], Any]] = [((), value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                return path, False
        elif isinstance(node, dict):
            for key, child in reversed(node.items()):
                if _SURROGATE.search(key):
                    return (*path, key), True
                stack.append(((*path, key), child))
        elif isinstance(node, list):
            stack.extend(((*path, i), child) for i, child in reversed(list(enumerate(node))))
    return None


def token_at(text: str, path: tuple[Segment, ...], is_key: bool) -> int | None:
    """Offset of the member name (``is_key``) or value at ``path``."""
    for token in walk(text):
        if token.path == path and token.kind == ("key" if is_key else "value"):
            return token.offset
    return None
