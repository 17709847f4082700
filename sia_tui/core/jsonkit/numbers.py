"""Numbers beyond I-JSON's range, and JSON written the ways vendors' canonicalizers write it.

RFC 8785 writes numbers as ECMAScript doubles and sorts member names by UTF-16 code units.
A canonicalizer that keeps exact integer digits, prints doubles in full digits, or sorts
names by code point writes other bytes for some documents; ``lax_canonical`` writes each
variant, so digest forensics can say which one a vendor used. ``unsafe_numbers`` finds
the numbers no double carries exactly (beyond +/-(2**53 - 1), RFC 7493 section 2.2): a
gRPC ``google.protobuf.Value`` (or any SDK that converts through protobuf) rounds them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from sia_tui.core.findings import Finding, Severity
from sia_tui.core.jsonkit.pointer import join

#: Largest integer a double carries exactly (I-JSON, RFC 8785 section 3.2.2.3).
MAX_SAFE_INTEGER = 2**53 - 1
#: How many unsafe numbers are reported at most (each is a finding or a forensics guess).
MAX_REPORTED = 20


def _unsafe(number: Any) -> bool:
    """A number no double carries exactly (an infinity is a double: no loss there)."""
    kind = type(number)
    return (kind is int or kind is float) and (
        abs(number) > MAX_SAFE_INTEGER and not (kind is float and math.isinf(number))
    )


def _members(container: dict[str, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    return iter(container.items()) if type(container) is dict else enumerate(container)


def unsafe_numbers(value: Any, limit: int = MAX_REPORTED) -> list[tuple[str, int | float]]:
    """(JSON Pointer, number) of the first ``limit`` (at least 1) numbers beyond
    +/-(2**53 - 1), in document order.

    Iterative (documents nest deeply); a path is built only for a number found (a path
    tuple for each of a million safe numbers cost 1.1 s of CPU and 210 MB)."""
    if _unsafe(value):
        return [("", value)]
    found: list[tuple[str, int | float]] = []
    pending: list[tuple[tuple[str | int, ...], Iterator[tuple[Any, Any]]]] = []
    if type(value) is dict or type(value) is list:
        pending.append(((), _members(value)))
    while pending and len(found) < limit:
        path, members = pending[-1]
        for key, child in members:
            kind = type(child)
            if kind is dict or kind is list:
                pending.append(((*path, key), _members(child)))
                break  # its members first: document order
            if _unsafe(child):
                found.append((join((*path, key)), child))
                if len(found) == limit:
                    break
        else:
            pending.pop()
    return found


def _digits(number: float) -> tuple[str, int]:
    """Shortest round-trip digits and n such that number = 0.DIGITS x 10**n (positive)."""
    sign, digits, exponent = Decimal(repr(number)).as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    return text, exponent + len("".join(map(str, digits)))


def es6_number(number: float, *, full_digits: bool = False) -> str:
    """A double as ECMAScript writes it (RFC 8785's number form): ``80``, ``1e+21``,
    ``1e-7``. ``full_digits`` writes every one positionally (``1000000000000000000000``,
    ``0.0000001``), as some vendors' canonicalizers do."""
    if number == 0:
        return "0"
    if number < 0:
        return "-" + es6_number(-number, full_digits=full_digits)
    digits, n = _digits(number)
    k = len(digits)
    if k <= n <= (10**9 if full_digits else 21):
        return digits + "0" * (n - k)
    if 0 < n <= 21 or (full_digits and n > 0):
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0 or full_digits:
        return "0." + "0" * -n + digits
    exponent = n - 1
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def lax_canonical(
    value: Any,
    *,
    code_point_order: bool = False,
    full_digits: bool = False,
    exact: dict[str, int] | None = None,
) -> bytes:
    """JCS as a lax canonicalizer writes it: integers in exact digits (even beyond 2**53),
    and optionally names sorted by code point, doubles in full digits, or the numbers at
    the pointers of ``exact`` replaced by those integers (what the vendor hashed)."""
    out: list[str] = []
    exact = exact or {}

    def key(name: str) -> Any:
        return name if code_point_order else name.encode("utf-16-be")

    def write(node: Any, path: tuple[str | int, ...]) -> None:
        if exact and type(node) in (int, float) and join(path) in exact:
            out.append(str(exact[join(path)]))
        elif type(node) is dict:
            out.append("{")
            for index, name in enumerate(sorted(node, key=key)):
                out.append(("," if index else "") + json.dumps(name, ensure_ascii=False) + ":")
                write(node[name], (*path, name))
            out.append("}")
        elif type(node) is list:
            out.append("[")
            for index, item in enumerate(node):
                out.append("," if index else "")
                write(item, (*path, index))
            out.append("]")
        elif type(node) is float:
            out.append(es6_number(node, full_digits=full_digits))
        else:  # str, int, bool, None: the standard encoder writes them as JCS does
            out.append(json.dumps(node, ensure_ascii=False))

    write(value, ())
    return "".join(out).encode("utf-8")


def exact_candidates(number: float) -> list[int]:
    """Integers a vendor may have meant by a rounded double: the round bounds of counters
    (2**64 - 1, 2**63 - 1...) and powers of ten that round to it, then the double's own
    integer value."""
    if not number.is_integer():
        return []
    sign = -1 if number < 0 else 1
    notable = [2**k + d for k in range(53, 129) for d in (-1, 0, 1)]
    notable += [10**k + d for k in range(16, 39) for d in (-1, 0)]
    found = [sign * n for n in notable if float(sign * n) == number]
    own = int(number)
    return [*found, *([own] if own not in found else [])]


def unsafe_number_findings(value: Any, *, label: str = "", rule: str = "SR4") -> list[Finding]:
    """A warning per number beyond +/-(2**53 - 1), at its pointer: it may have lost
    precision in transit, and the draft's digests and bounds cannot be trusted for it."""
    return [
        Finding(
            f"{label}the number {number if type(number) is int else es6_number(number)} at "
            f"{pointer or '/'} is beyond +/-(2^53-1): it may have lost precision in transit "
            "(a double: gRPC's google.protobuf.Value, SDKs that convert through protobuf, "
            "JavaScript), and the draft's digests and schema bounds cannot be trusted for it",
            severity=Severity.WARNING,
            pointer=pointer,
            rule=rule,
        )
        for pointer, number in unsafe_numbers(value)
    ]
