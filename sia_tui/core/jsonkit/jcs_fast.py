"""RFC 8785 bytes from the standard library's C encoder, where a walk proves them equal.

JCS is ``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` except
for keys above U+FFFF (UTF-16 order), some floats, and integers beyond 2**53 - 1.
``jsonshape.measure`` finds those; the only one repaired here is the integral float
("3.0" must be "3"), by copying just the containers that hold one. Everything else goes
to the reference implementation (rfc8785), which also explains every refusal.
"""

from __future__ import annotations

import json
from typing import Any

from sia_tui.core.jsonkit.jsonshape import EXACT_INT_FLOAT, Shape

# Same escapes as RFC 8785 section 3.2.2.2: \b \t \n \f \r \" \\ and \u00xx (lowercase).
_ENCODER = json.JSONEncoder(
    ensure_ascii=False,
    check_circular=False,  # measure() stops on any cycle: it is deeper than the limit
    allow_nan=False,
    sort_keys=True,
    separators=(",", ":"),
)


def encoder_bytes(value: Any, shape: Shape) -> bytes | None:
    """The JCS bytes of ``value`` (measured as ``shape``), or None to use the reference."""
    if not shape.encoder_safe:
        return None
    if shape.rewrite:
        value = _integral_floats_as_ints(value, shape.rewrite)
    try:
        return _ENCODER.encode(value).encode("utf-8")
    except (UnicodeEncodeError, ValueError, RecursionError):
        return None  # a lone surrogate, say: the reference words the refusal


def _integral_floats_as_ints(value: Any, rewrite: frozenset[int]) -> Any:
    """A copy of ``value`` sharing every container not in ``rewrite`` (ids); in the
    copied ones an integral float becomes an int, which the encoder writes as JCS does."""
    copies: dict[int, Any] = {}
    pending: list[tuple[Any, Any]] = []

    def copy_of(node: Any) -> Any:
        if id(node) not in copies:
            copies[id(node)] = node.copy()
            pending.append((node, copies[id(node)]))
        return copies[id(node)]

    root = copy_of(value)
    while pending:
        node, copy = pending.pop()
        for key, child in node.items() if type(node) is dict else enumerate(node):
            kind = type(child)
            if kind is float:
                # From 1e21 up, repr is already the JCS form ("1e+21"): leave those as floats.
                if child.is_integer() and -EXACT_INT_FLOAT < child < EXACT_INT_FLOAT:
                    copy[key] = int(child)
            elif (kind is dict or kind is list) and id(child) in rewrite:
                copy[key] = copy_of(child)
    return root
