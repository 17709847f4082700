"""Digest forensics: which common vendor mistake reproduces a digest that does not match."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sia_tui.core.constants import DIGEST_MEMBER, DOCUMENT_MEMBER
from sia_tui.core.errors import CanonicalizationError
from sia_tui.core.interface.number_forensics import (
    number_verdicts,
    order_difference,
    spelling_difference,
)
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.jsonkit.numbers import lax_canonical

_NOT_JCS = "you are not using RFC 8785 (JCS)"


@dataclass(frozen=True)
class ForensicsVerdict:
    """The mistake that reproduces the declared digest (``matched``), or None, and why."""

    matched: str | None
    explanation: str
    #: Names of every variant that was tried, in order.
    tried: tuple[str, ...]
    #: JSON Pointers (into the value) of what the verdict names: the numbers beyond
    #: +/-(2**53 - 1), the object whose member order differs.
    pointers: tuple[str, ...] = ()


def _dumps(**options: Any) -> Callable[[Any], bytes]:
    return lambda value: json.dumps(value, **options).encode("utf-8")


# (name, how the bytes were made, explanation). Order: most common mistakes first.
_SERIALIZATIONS: tuple[tuple[str, Callable[[Any], bytes], str], ...] = (
    (
        "json_dumps_sorted",
        _dumps(sort_keys=True),
        "json.dumps(sort_keys=True) with default separators",
    ),
    (
        "json_dumps_sorted_compact",
        _dumps(sort_keys=True, separators=(",", ":")),
        "json.dumps(sort_keys=True, separators=(',', ':')) with ensure_ascii=True "
        "(non-ASCII escaped as \\uXXXX)",
    ),
    (
        "json_dumps_sorted_ensure_ascii_false",
        _dumps(sort_keys=True, ensure_ascii=False),
        "json.dumps(sort_keys=True, ensure_ascii=False) with default separators",
    ),
    (
        "python_float_repr",
        _dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False),
        "json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False): almost JCS, "
        "but numbers use Python's float repr (1.0 where JCS writes 1, 1e+16 where JCS writes "
        "10000000000000000): you are not using RFC 8785 number formatting",
    ),
    (
        "json_dumps_unsorted",
        _dumps(),
        "json.dumps without sort_keys, with default separators (member order as received)",
    ),
    (
        "json_dumps_unsorted_compact",
        _dumps(separators=(",", ":"), ensure_ascii=False),
        "compact json.dumps without sort_keys (member order as received)",
    ),
    (
        "pretty_indent_2",
        _dumps(sort_keys=True, indent=2),
        "pretty-printed JSON (indent=2, sorted keys)",
    ),
    (
        "pretty_indent_4",
        _dumps(sort_keys=True, indent=4),
        "pretty-printed JSON (indent=4, sorted keys)",
    ),
    ("pretty_indent_2_unsorted", _dumps(indent=2), "pretty-printed JSON (indent=2, unsorted)"),
    ("pretty_indent_4_unsorted", _dumps(indent=4), "pretty-printed JSON (indent=4, unsorted)"),
)


#: The same serializations, public: the card signature forensics try them too.
NON_JCS_SERIALIZATIONS = _SERIALIZATIONS


def serialization_words(name: str) -> str:
    """How the named non-JCS serialization makes its bytes, in the words its verdict uses
    ("json.dumps without sort_keys, ..."): a fault that makes the mistake says it the same way."""
    return next(how for found, _, how in _SERIALIZATIONS if found == name)


def mistake_sentence(name: str) -> str:
    """The end of the verdict that names serialization ``name``: "SHA-256 over ...: you are
    not using RFC 8785 (JCS)"."""
    return f"SHA-256 over {serialization_words(name)}: {_NOT_JCS}"


def _hex_of(declared: str) -> str:
    """The hex part of a declared digest, forgiving case and prefix mistakes."""
    return declared.rpartition(":")[2].strip().lower()


def _candidates(
    value: Any, reference: dict[str, Any] | None, carrier: dict[str, Any] | None
) -> Iterator[tuple[str, bytes, str]]:
    try:
        jcs: bytes | None = canonical_bytes(value)
    except CanonicalizationError:
        jcs = None
    if jcs is not None:
        yield (
            "jcs_trailing_newline",
            jcs + b"\n",
            "SHA-256 over the canonical text plus a trailing newline: hash exactly the "
            "RFC 8785 bytes, without a newline",
        )
    # Two mistakes of canonicalizers that are almost RFC 8785 (an agent on another
    # language's SDK made both): they differ from JCS only for some documents, so they
    # are tried before the serializations that make them too among other mistakes (a
    # sorted json.dumps also orders names by code point).
    where = order_difference(value)
    if where is not None:
        yield (
            "member_order_code_points",
            lax_canonical(value, code_point_order=True),
            f"RFC 8785 with member names sorted by Unicode code point (first different at "
            f"{where or '/'}): RFC 8785 sorts them by UTF-16 code units, which differs when "
            "names hold characters above U+FFFF next to ones from U+E000 to U+FFFF (sorted maps "
            "and Python's sort_keys order by code point; RULES SR4)",
        )
    where = spelling_difference(value)
    if where is not None:
        yield (
            "numbers_full_digits",
            lax_canonical(value, full_digits=True),
            f"RFC 8785 with numbers written in full digits (first at {where}; 1e21 as "
            "1000000000000000000000): RFC 8785 writes numbers as ECMAScript does (1e+21, "
            "1e-7), section 3.2.2.3 (RULES SR4)",
        )
    for name, make, _how in _SERIALIZATIONS:
        try:
            data = make(value)
        except (TypeError, ValueError, RecursionError):
            continue
        if data != jcs:
            yield name, data, mistake_sentence(name)
    if reference is not None:
        yield (
            "whole_schema_reference",
            _safe_jcs(reference),
            "SHA-256 over the whole Schema Reference: the digest covers only "
            "resolution.schema (RULES SR6)",
        )
    if carrier is not None:
        variants = (
            ("carrier_as_sent", carrier),
            ("carrier_empty_digest", {**carrier, DIGEST_MEMBER: ""}),
            ("carrier_null_digest", {**carrier, DIGEST_MEMBER: None}),
            ("carrier_without_digest", {k: v for k, v in carrier.items() if k != DIGEST_MEMBER}),
        )
        for name, payload in variants:
            yield (
                name,
                _safe_jcs(payload),
                f"SHA-256 over the describe_skill payload ({DIGEST_MEMBER} + "
                f"{DOCUMENT_MEMBER}): the interface digest covers only the document "
                "and is carried outside it (RULES SID6)",
            )
        document = carrier.get(DOCUMENT_MEMBER)
        if isinstance(document, dict):
            yield (
                "document_with_own_digest",
                _safe_jcs({**document, DIGEST_MEMBER: carrier.get(DIGEST_MEMBER)}),
                "SHA-256 over the document with its own digest inside: the digest is "
                "carried outside the document (RULES SID6)",
            )


def _safe_jcs(value: Any) -> bytes:
    try:
        return canonical_bytes(value)
    except CanonicalizationError:
        return b""


def diagnose_digest(
    declared: str,
    value: Any,
    *,
    reference: dict[str, Any] | None = None,
    carrier: dict[str, Any] | None = None,
) -> ForensicsVerdict:
    """Try the usual vendor mistakes and say which one reproduces ``declared``."""
    tried: list[str] = ["jcs"]
    wanted = _hex_of(declared) if isinstance(declared, str) else ""
    try:
        correct: str | None = hashlib.sha256(canonical_bytes(value)).hexdigest()
    except CanonicalizationError as exc:
        correct, refusal = None, str(exc)
    if correct is not None and wanted == correct:
        return _format_verdict(declared, correct, tried)
    if correct is not None:
        for name, data, explanation in _candidates(value, reference, carrier):
            tried.append(name)
            if data and hashlib.sha256(data).hexdigest() == wanted:
                where = tuple(p for p in _named_pointers(name, value) if p is not None)
                return ForensicsVerdict(
                    name, f"your digest matches {explanation}", tuple(tried), where
                )
    # Numbers beyond +/-(2**53 - 1): hashed as exact integers, carried as doubles.
    numbers = number_verdicts(wanted, value)
    tried += numbers.tried
    if numbers.matched is not None:
        return ForensicsVerdict(
            numbers.matched, numbers.explanation, tuple(tried), numbers.pointers
        )
    if correct is None:
        return ForensicsVerdict(
            None,
            f"the value cannot be canonicalized: {refusal}{numbers.explanation}",
            tuple(tried),
            numbers.pointers,
        )
    return ForensicsVerdict(
        None,
        "no common mistake reproduces the declared digest: the content probably changed "
        "after the digest was computed, or the digest belongs to another version"
        + numbers.explanation,
        tuple(tried),
        numbers.pointers,
    )


def _named_pointers(name: str, value: Any) -> tuple[str | None, ...]:
    if name == "member_order_code_points":
        return (order_difference(value),)
    if name == "numbers_full_digits":
        return (spelling_difference(value),)
    return ()


def _format_verdict(declared: str, correct: str, tried: list[str]) -> ForensicsVerdict:
    """The hash is right; only the way it is written may be wrong."""
    tried += ["missing_prefix", "uppercase_hex"]
    if declared == "sha256:" + correct:
        return ForensicsVerdict("correct", "the declared digest is correct", tuple(tried))
    if declared == correct or declared.lower() == correct:
        case = " and uses uppercase hex" if declared != correct else ""
        return ForensicsVerdict(
            "missing_prefix",
            f"your digest is the right SHA-256 but lacks the 'sha256:' prefix{case}",
            tuple(tried),
        )
    return ForensicsVerdict(
        "uppercase_hex",
        "your digest is the right SHA-256 but written in uppercase; RULES SR4 requires "
        "'sha256:' and lowercase hex",
        tuple(tried),
    )
