"""One iterative walk over a parsed JSON value: the facts strict loading and JCS need.

Strict loading (``strictjson``) needs the nesting depth and whether a number overflowed to
infinity; the JCS fast path (``jcs_fast``) needs to know that the standard library's C
encoder writes exactly the RFC 8785 bytes. One walk answers both, without recursion, and
stops as soon as the depth limit is passed (so a cyclic value built in code ends too).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

#: Integers JCS carries exactly (RFC 8785 section 3.2.2.3 via IEEE-754 doubles).
_SAFE_INT = 2**53 - 1
#: Integral floats below this are written by JCS as their integer digits.
EXACT_INT_FLOAT = 2.0**53
#: At and above this magnitude ECMAScript writes exponent form, exactly as Python's repr.
_EXPONENT_FORM = 1e21
#: Below this magnitude Python's repr switches to exponent form ("1e-05"), ECMAScript not.
_FIXED_FORM = 1e-4
_INFINITY = float("inf")
# Characters above U+FFFF: UTF-16 key order (JCS) differs from code point order there.
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

_Entry = tuple[Any, int, Any]


class Shape(NamedTuple):
    """What one walk over a JSON value found. Valid only for that value, unmodified."""

    #: Deepest container nesting (the root container is 1), counted up to max_depth + 1.
    depth: int
    #: A float is NaN or infinite (JSON text cannot hold one; a literal overflowed).
    non_finite: bool
    #: ``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` writes
    #: the RFC 8785 bytes once the containers in ``rewrite`` have their integral floats
    #: written as integers ("3.0" -> "3", "-0.0" -> "0").
    encoder_safe: bool
    #: ids of the containers holding such an integral float, and of all their ancestors.
    rewrite: frozenset[int]


def measure(value: Any, max_depth: int) -> Shape:
    """Walk ``value`` once, iteratively; stop counting when nesting passes ``max_depth``."""
    if type(value) is not dict and type(value) is not list:
        is_float = type(value) is float
        return Shape(0, is_float and not -_INFINITY < value < _INFINITY, False, frozenset())
    # Each entry is (container, depth, entry of its parent): the path to it, as a chain.
    stack: list[_Entry] = [(value, 1, None)]
    # Entries on a path to an integral float, keyed by id; holding them keeps ids unique.
    marked: dict[int, _Entry] = {}
    deepest = 0
    non_finite = False
    safe = True
    while stack:
        entry = stack.pop()
        node, depth, _ = entry
        if depth > deepest:
            deepest = depth
            if depth > max_depth:
                return Shape(depth, non_finite, False, frozenset())
        if type(node) is dict:
            try:
                keys = "".join(node)
            except TypeError:  # a key that is not a string: not JSON at all
                safe = False
            else:
                if not keys.isascii() and _ASTRAL.search(keys):
                    safe = False
            children: Any = node.values()
        else:
            children = node
        for child in children:
            kind = type(child)
            if kind is str or kind is bool or child is None:
                continue
            if kind is int:
                if not -_SAFE_INT <= child <= _SAFE_INT:
                    safe = False
            elif kind is float:
                if child.is_integer():
                    if -EXACT_INT_FLOAT < child < EXACT_INT_FLOAT:
                        _mark(entry, marked)
                    elif -_EXPONENT_FORM < child < _EXPONENT_FORM:
                        safe = False  # 2**53 <= |x| < 1e21: digits differ from repr
                elif not (_FIXED_FORM <= child < _INFINITY or -_INFINITY < child <= -_FIXED_FORM):
                    if child != child or child in (_INFINITY, -_INFINITY):
                        non_finite = True
                    safe = False
            elif kind is dict or kind is list:
                stack.append((child, depth + 1, entry))
            else:
                safe = False  # tuples, subclasses, bytes...: the reference decides
    rewrite = frozenset(id(entry[0]) for entry in marked.values()) if safe else frozenset()
    return Shape(deepest, non_finite, safe, rewrite)


def _mark(entry: _Entry | None, marked: dict[int, _Entry]) -> None:
    """Mark a container and its ancestors on this path, stopping at a marked one.

    Entries, not containers, are marked: a container shared by two paths (possible in a
    value built in code) must get both paths of ancestors copied.
    """
    while entry is not None and id(entry) not in marked:
        marked[id(entry)] = entry
        entry = entry[2]
