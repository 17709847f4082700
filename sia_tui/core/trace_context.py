"""W3C Trace Context (https://www.w3.org/TR/trace-context/): the ``traceparent`` and
``tracestate`` headers that join a run's exchanges to the agent's own logs and traces.

The client sends one trace id per run and one span id per exchange (random, from
``secrets``); the reference agent reads an incoming ``traceparent`` with
:func:`parse_traceparent`. Every pattern here is anchored and free of nested repetition, so
it is linear in its input (``tests/core/test_linear_patterns.py``); a header is bounded before
it is parsed.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from sia_tui.core.errors import SiaError

TRACEPARENT = "traceparent"
TRACESTATE = "tracestate"
#: The one version this module writes (and the layout every version starts with).
VERSION = "00"
#: Sampled: the trace is meant to be kept, as a bug report's is.
SAMPLED = "01"
#: A tracestate longer than this is refused: every vendor must propagate 512 characters.
MAX_TRACESTATE_CHARS = 512
#: At most this many list members (W3C Trace Context, section 3.3.1.1).
MAX_TRACESTATE_MEMBERS = 32

_TRACEPARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})")
_SIMPLE_KEY = r"[a-z][a-z0-9_\-*/]{0,255}"
_TENANT_KEY = r"[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13}"
_KEY = re.compile(rf"(?:{_SIMPLE_KEY}|{_TENANT_KEY})")
#: chr = %x20 / nblk-chr; nblk-chr = %x21-2B / %x2D-3C / %x3E-7E; the last one not a space.
_VALUE = re.compile(r"[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]")


class TraceStateError(SiaError, ValueError):
    """A ``tracestate`` that breaks the W3C syntax; the message says where."""


@dataclass(frozen=True)
class TraceParent:
    """A ``traceparent`` read from a request: the trace it belongs to and its caller's span."""

    trace_id: str
    span_id: str
    flags: str


@dataclass(frozen=True)
class TraceContext:
    """One run's trace: its id, and the user's ``tracestate`` passed through unchanged."""

    trace_id: str
    tracestate: str | None = None

    @classmethod
    def new(cls, tracestate: str | None = None) -> TraceContext:
        """A fresh trace (random id, never all zeros) carrying ``tracestate``."""
        return cls(_random_hex(16), tracestate)

    def headers(self, span_id: str) -> list[tuple[str, str]]:
        """The headers of one exchange, whose span is ``span_id``."""
        pairs = [(TRACEPARENT, f"{VERSION}-{self.trace_id}-{span_id}-{SAMPLED}")]
        if self.tracestate:
            pairs.append((TRACESTATE, self.tracestate))
        return pairs


def new_span_id() -> str:
    """A random span id: 8 bytes as 16 lowercase hex digits, never all zeros."""
    return _random_hex(8)


def _random_hex(size: int) -> str:
    while True:  # all zeros is invalid (W3C section 3.2.2.3); a retry is a 2^-64 event
        value = secrets.token_hex(size)
        if value.strip("0"):
            return value


def parse_traceparent(value: str) -> TraceParent | None:
    """The trace and span of a ``traceparent`` value; None when it is not a valid one
    (then a receiver starts a trace of its own, as W3C section 3.2.2 says)."""
    value = value.strip(" \t")[:512]
    head = _TRACEPARENT.match(value)
    if head is None:
        return None
    version, trace_id, span_id, flags = head.groups()
    if version == "ff" or not trace_id.strip("0") or not span_id.strip("0"):
        return None
    rest = value[head.end() :]
    if (version == VERSION and rest) or (rest and not rest.startswith("-")):
        return None  # version 00 has exactly four fields; a later one may add "-..."
    return TraceParent(trace_id, span_id, flags)


def is_trace_id(text: str) -> bool:
    """True for 32 lowercase hex digits, not all zeros (a session file is checked)."""
    return _is_hex_id(text, 32)


def is_span_id(text: str) -> bool:
    """True for 16 lowercase hex digits, not all zeros."""
    return _is_hex_id(text, 16)


def _is_hex_id(text: str, size: int) -> bool:
    return (
        len(text) == size and all(c in "0123456789abcdef" for c in text) and bool(text.strip("0"))
    )


def span_of(headers: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> str | None:
    """The span id of the ``traceparent`` among request ``headers`` (None: none sent)."""
    parsed = _traceparent_in(headers)
    return parsed.span_id if parsed is not None else None


def trace_of(headers: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> str | None:
    """The trace id of the ``traceparent`` among ``headers`` (None: none, or invalid)."""
    parsed = _traceparent_in(headers)
    return parsed.trace_id if parsed is not None else None


def _traceparent_in(
    headers: tuple[tuple[str, str], ...] | list[tuple[str, str]],
) -> TraceParent | None:
    value = next((v for name, v in headers if name.lower() == TRACEPARENT), None)
    return parse_traceparent(value) if value is not None else None


def checked_tracestate(text: str) -> str:
    """``text`` if it is a valid ``tracestate`` (W3C section 3.3), else TraceStateError.

    Read member by member, left to right: each member is split once at its first ``=``
    and matched by two anchored patterns, so checking is linear in the text.
    """
    if len(text) > MAX_TRACESTATE_CHARS:
        raise TraceStateError(
            f"longer than {MAX_TRACESTATE_CHARS} characters (what every vendor must pass on)"
        )
    keys: set[str] = set()
    members = text.split(",")
    for number, raw in enumerate(members, 1):
        member = raw.strip(" \t")
        if not member:
            continue  # empty members are allowed, and ignored
        key, sep, value = member.partition("=")
        if not sep:
            raise TraceStateError(f"member {number} has no '=' (want key=value)")
        if not _KEY.fullmatch(key):
            raise TraceStateError(
                f"member {number}: the key must be lowercase letters, digits, _-*/ "
                "(tenant@system for a multi-tenant key), starting with a letter"
            )
        if not _VALUE.fullmatch(value):
            raise TraceStateError(
                f"member {number}: the value must be 1-256 printable ASCII characters "
                "without ',' or '=', not ending in a space"
            )
        if key in keys:
            raise TraceStateError(f"member {number}: key {key!r} appears twice")
        keys.add(key)
    if len(keys) > MAX_TRACESTATE_MEMBERS:
        raise TraceStateError(f"more than {MAX_TRACESTATE_MEMBERS} list members")
    if not keys:
        raise TraceStateError("no list member (want key=value[,key=value...])")
    return text.strip(" \t")
