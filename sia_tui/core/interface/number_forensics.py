"""Digest forensics about numbers and member order: what RFC 8785 writes differently.

A Counter64 bound like 18446744073709551615 is beyond +/-(2**53 - 1): RFC 8785 cannot
write it (I-JSON), and a double rounds it (18446744073709551616) wherever the document
passes through one: a gRPC ``google.protobuf.Value``, or an SDK that converts JSON
through protobuf on any binding. A vendor whose canonicalizer hashed the exact digits
advertises a digest no receiver can reproduce; this module says where, and how.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Any

from sia_tui.core.jsonkit.numbers import (
    MAX_SAFE_INTEGER,
    es6_number,
    exact_candidates,
    lax_canonical,
    unsafe_numbers,
)
from sia_tui.core.jsonkit.pointer import join

#: Most guesses of exact integers tried for rounded doubles (a product over pointers).
MAX_GUESSES = 64
_RANGE = f"+/-(2^53-1) = +/-{MAX_SAFE_INTEGER}"
_ADVICE = (
    "keep numbers within I-JSON's range, or carry such a bound as a string (RFC 7493 "
    "section 2.2, RFC 8785 section 3.2.2.3; RULES SR4)"
)


@dataclass(frozen=True)
class NumberVerdict:
    """The exact integers that reproduce a digest, or a note about unsafe numbers."""

    matched: str | None
    explanation: str
    tried: tuple[str, ...]
    pointers: tuple[str, ...]


def _first(paths: list[tuple[str | int, ...]]) -> str | None:
    return join(paths[0]) if paths else None


def order_difference(value: Any) -> str | None:
    """The first object whose member order by code point differs from RFC 8785's (UTF-16)."""
    pending: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while pending:
        path, node = pending.pop(0)
        if type(node) is dict:
            if sorted(node) != sorted(node, key=lambda name: name.encode("utf-16-be")):
                return join(path) or ""
            pending.extend(((*path, k), v) for k, v in node.items())
        elif type(node) is list:
            pending.extend(((*path, i), v) for i, v in enumerate(node))
    return None


def spelling_difference(value: Any) -> str | None:
    """The first double whose full-digit spelling differs from RFC 8785's (1e+21)."""
    pending: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while pending:
        path, node = pending.pop(0)
        if type(node) is dict:
            pending.extend(((*path, k), v) for k, v in node.items())
        elif type(node) is list:
            pending.extend(((*path, i), v) for i, v in enumerate(node))
        elif type(node) is float and es6_number(node) != es6_number(node, full_digits=True):
            return join(path)
    return None


def _matches(wanted: str, data: bytes) -> bool:
    return hashlib.sha256(data).hexdigest() == wanted


def number_verdicts(wanted: str, value: Any) -> NumberVerdict:
    """Whether exact integers beyond +/-(2**53 - 1) reproduce the digest ``wanted`` (hex)."""
    unsafe = unsafe_numbers(value)
    if not unsafe:
        return NumberVerdict(None, "", (), ())
    exact = [(p, n) for p, n in unsafe if type(n) is int]
    rounded = [(p, n) for p, n in unsafe if type(n) is float]
    pointers = tuple(p for p, _ in unsafe)
    tried: list[str] = []
    if exact:
        tried.append("exact_integer_digits")
        if _matches(wanted, lax_canonical(value)):
            pointer, number = exact[0]
            return NumberVerdict(
                "exact_integer_digits",
                f"your digest matches the exact digits of the integer {number} at {pointer}"
                f"{_more(exact)}, which is beyond {_RANGE}: RFC 8785 cannot write it, so the "
                "digest is undefined; this answer carried the digits, but a receiver that "
                "reads numbers as doubles (gRPC's google.protobuf.Value, an SDK that converts "
                f"through protobuf, JavaScript) gets {es6_number(float(number))} and another "
                f"digest: {_ADVICE}",
                tuple(tried),
                pointers,
            )
    if rounded:
        tried.append("exact_integer_rounded_in_transit")
        choices = [[(p, c) for c in exact_candidates(n)] for p, n in rounded]
        for combo in itertools.islice(itertools.product(*choices), MAX_GUESSES):
            if _matches(wanted, lax_canonical(value, exact=dict(combo))):
                pointer, number = combo[0]
                arrived = dict(rounded)[pointer]
                return NumberVerdict(
                    "exact_integer_rounded_in_transit",
                    f"your digest matches RFC 8785 over the exact integer {number} at "
                    f"{pointer}{_more(rounded)}, but it arrived as {es6_number(arrived)}: an "
                    f"integer beyond {_RANGE} does not survive a double, and on the way it "
                    "went through one (gRPC's google.protobuf.Value, or an SDK that converts "
                    f"through protobuf), so no receiver can reproduce your digest: {_ADVICE}",
                    tuple(tried),
                    pointers,
                )
    shown = ", ".join(pointers[:3]) + (" ..." if len(pointers) > 3 else "")
    return NumberVerdict(
        None,
        f"; the document holds numbers beyond {_RANGE} (at {shown}): a double cannot carry "
        "them exactly, so a digest over other digits than arrived cannot be reproduced",
        tuple(tried),
        pointers,
    )


def _more(numbers: list[tuple[str, Any]]) -> str:
    return f" (and {len(numbers) - 1} more)" if len(numbers) > 1 else ""
