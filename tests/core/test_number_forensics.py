"""Digest forensics for numbers beyond I-JSON's range and for two almost-JCS canonicalizers
(member names by code point, numbers in full digits): each is named, with its pointer."""

from __future__ import annotations

import copy
import hashlib
import math
from collections.abc import Iterator
from typing import Any

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from sia_tui.core.interface.document import verify_digests
from sia_tui.core.interface.forensics import diagnose_digest
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.jsonkit.numbers import (
    MAX_SAFE_INTEGER,
    es6_number,
    lax_canonical,
    unsafe_number_findings,
    unsafe_numbers,
)
from sia_tui.core.jsonkit.pointer import join

COUNTER64 = 2**64 - 1
BOUND = "/properties/octets/maximum"


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def schema(bound: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"octets": {"type": "integer", "maximum": bound}}}


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_es6_numbers_are_rfc_8785s(number: float) -> None:
    assert es6_number(number).encode() == rfc8785.dumps(number)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON)
def test_the_lax_canonicalizer_is_jcs_within_i_json(value: Any) -> None:
    """The variants differ from RFC 8785 only where their one mistake shows."""
    assert lax_canonical(value) == rfc8785.dumps(value)


def test_a_counter64_bound_hashed_in_exact_digits_is_named_where_it_arrived_exact() -> None:
    """Over JSON-RPC the exact integer arrives: RFC 8785 cannot write it, so there is no
    digest (RULES SR4), but the vendor's is its exact digits."""
    value = schema(COUNTER64)
    verdict = diagnose_digest(sha(lax_canonical(value)), value)
    assert verdict.matched == "exact_integer_digits"
    assert verdict.pointers == (BOUND,)
    assert f"18446744073709551615 at {BOUND}" in verdict.explanation
    assert "18446744073709552000" in verdict.explanation  # what a double makes of it


def test_a_counter64_bound_rounded_in_transit_is_named_with_what_it_became() -> None:
    """Over gRPC (a google.protobuf.Value double) 2**64 - 1 arrives as 2**64."""
    vendor = sha(lax_canonical(schema(COUNTER64)))
    arrived = schema(float(COUNTER64))
    assert digest_of(arrived) != vendor
    verdict = diagnose_digest(vendor, arrived)
    assert verdict.matched == "exact_integer_rounded_in_transit"
    assert f"exact integer 18446744073709551615 at {BOUND}" in verdict.explanation
    assert "arrived as 18446744073709552000" in verdict.explanation


def test_an_unsafe_number_that_does_not_explain_the_digest_is_still_pointed_at() -> None:
    verdict = diagnose_digest(sha(b"something else"), schema(float(2**60)))
    assert verdict.matched is None and verdict.pointers == (BOUND,)
    assert "content probably changed" in verdict.explanation
    assert f"beyond +/-(2^53-1) = +/-{MAX_SAFE_INTEGER} (at {BOUND})" in verdict.explanation


def test_member_names_sorted_by_code_point_are_named() -> None:
    """U+1F600 sorts before U+FF21 in UTF-16 (a surrogate, D83D) but after it by code point."""
    value = {"labels": {"\U0001f600": "smile", "\uff21": "fullwidth A"}, "b": 1}
    verdict = diagnose_digest(sha(lax_canonical(value, code_point_order=True)), value)
    assert verdict.matched == "member_order_code_points"
    assert verdict.pointers == ("/labels",)
    assert "UTF-16 code units" in verdict.explanation


def test_numbers_in_full_digits_are_named() -> None:
    value = {"limits": {"max": 1e21, "min": 1e-7}}
    written = lax_canonical(value, full_digits=True)
    assert b"1000000000000000000000" in written and b"0.0000001" in written
    verdict = diagnose_digest(sha(written), value)
    assert verdict.matched == "numbers_full_digits"
    assert verdict.pointers == ("/limits/max",)
    assert "1e+21" in verdict.explanation


def test_documents_where_the_mistakes_cannot_show_are_not_blamed_on_them() -> None:
    """Without astral names or big doubles the variants write JCS: never a false match."""
    value = {"a": 1, "b": [0.5, "x"]}
    verdict = diagnose_digest(sha(b"other"), value)
    assert "member_order_code_points" not in verdict.tried
    assert "numbers_full_digits" not in verdict.tried


def test_step_four_names_the_pointer_of_a_bound_it_cannot_canonicalize() -> None:
    """RULES CP4 fails (the digest is undefined), with a located warning per number."""
    document = {"input_schema": {"resolution": {"schema": schema(COUNTER64)}}}
    digest = sha(lax_canonical(document))
    check = verify_digests(document, digest, digest)
    assert not check.ok and check.computed is None
    assert check.forensics is not None and check.forensics.matched == "exact_integer_digits"
    pointer = "/input_schema/resolution/schema" + BOUND
    assert [f.pointer for f in check.findings if f.severity == "warning"] == [pointer]


def test_unsafe_numbers_are_found_in_document_order_and_bounded() -> None:
    value = {"a": [2**53, -(2**53) - 5, 3], "b": {"c": 1e300, "d": math.inf}, "e": 2**53 - 1}
    assert unsafe_numbers(value) == [("/a/0", 2**53), ("/a/1", -(2**53) - 5), ("/b/c", 1e300)]
    assert len(unsafe_numbers(list(range(2**54, 2**54 + 100)))) == 20
    (warning,) = unsafe_number_findings({"n": copy.copy(2**60)}, label="record 'r': ")
    assert warning.message.startswith("record 'r': the number 1152921504606846976 at /n")


def _numbers_by_path(value: Any) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every number with its path, in document order: how unsafe_numbers walked until a
    path tuple for each of a million safe numbers cost 1.1 s of CPU and 210 MB."""
    pending: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while pending:
        path, node = pending.pop()
        kind = type(node)
        if kind is dict:
            pending.extend(((*path, k), v) for k, v in reversed(node.items()))
        elif kind is list:
            pending.extend(((*path, i), v) for i, v in reversed(list(enumerate(node))))
        elif kind is int or kind is float:
            yield path, node


def _unsafe_numbers_by_path(value: Any, limit: int) -> list[tuple[str, int | float]]:
    found: list[tuple[str, int | float]] = []
    for path, number in _numbers_by_path(value):
        if abs(number) > MAX_SAFE_INTEGER and not (type(number) is float and math.isinf(number)):
            found.append((join(path), number))
            if len(found) == limit:
                break
    return found


_NUMBERS = st.one_of(
    st.integers(-(2**55), 2**55),
    st.sampled_from([MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 2**64]),
    st.floats(),  # NaN and the infinities too
)
_DOCUMENTS = st.recursive(
    _NUMBERS | st.booleans() | st.none() | st.text(max_size=2),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=30,
)


@settings(max_examples=200)
@given(value=_DOCUMENTS, limit=st.integers(1, 6))
def test_unsafe_numbers_finds_what_walking_every_number_finds(value: Any, limit: int) -> None:
    """The same numbers, pointers and order as a walk over every number, and the same cut."""
    assert unsafe_numbers(value, limit) == _unsafe_numbers_by_path(value, limit)


def test_a_large_safe_result_reports_nothing_and_an_unsafe_one_its_pointer() -> None:
    samples = [{"sample": n, "value": n % 100, "note": "padding"} for n in range(5000)]
    assert unsafe_numbers({"x_samples": samples}) == []
    samples[4321]["value"] = 2**64
    assert unsafe_numbers({"x_samples": samples}) == [("/x_samples/4321/value", 2**64)]
