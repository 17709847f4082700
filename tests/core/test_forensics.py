"""Digest forensics: each common vendor mistake is recognised and named (RULES SR4, SR6, SID6)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from sia_tui.core.interface.forensics import diagnose_digest
from sia_tui.core.jsonkit.canonical import canonical_bytes, digest_of
from tests.support.documents import make_document

VALUE: dict[str, Any] = {"b": [1.0, 1e16, "é"], "a": {"z": None, "y": True}}


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize(
    "name, data",
    [
        ("json_dumps_sorted", json.dumps(VALUE, sort_keys=True).encode()),
        (
            "json_dumps_sorted_compact",
            json.dumps(VALUE, sort_keys=True, separators=(",", ":")).encode(),
        ),
        (
            "json_dumps_sorted_ensure_ascii_false",
            json.dumps(VALUE, sort_keys=True, ensure_ascii=False).encode(),
        ),
        (
            "python_float_repr",
            json.dumps(VALUE, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(),
        ),
        ("json_dumps_unsorted", json.dumps(VALUE).encode()),
        ("pretty_indent_2", json.dumps(VALUE, sort_keys=True, indent=2).encode()),
        ("pretty_indent_4", json.dumps(VALUE, sort_keys=True, indent=4).encode()),
        ("jcs_trailing_newline", canonical_bytes(VALUE) + b"\n"),
    ],
)
def test_serialization_mistakes_are_named(name: str, data: bytes) -> None:
    verdict = diagnose_digest(_sha(data), VALUE)
    assert verdict.matched == name
    assert verdict.explanation.startswith("your digest matches SHA-256 over")
    assert name in verdict.tried


def test_default_json_dumps_explanation_reads_like_the_brief() -> None:
    verdict = diagnose_digest(_sha(json.dumps(VALUE, sort_keys=True).encode()), VALUE)
    assert verdict.explanation == (
        "your digest matches SHA-256 over json.dumps(sort_keys=True) with default "
        "separators: you are not using RFC 8785 (JCS)"
    )


def test_sr6_hashing_the_whole_reference_is_named() -> None:
    schema = {"type": "string"}
    reference = {
        "schema_uri": "urn:x",
        "version": "1.0",
        "digest": "",
        "resolution": {"type": "inline", "schema": schema},
    }
    verdict = diagnose_digest(digest_of(reference), schema, reference=reference)
    assert verdict.matched == "whole_schema_reference" and "SR6" in verdict.explanation


@pytest.mark.parametrize("variant", ["as_sent", "empty", "without"])
def test_sid6_hashing_the_payload_with_its_own_digest_is_named(variant: str) -> None:
    document = make_document()
    if variant == "as_sent":
        carrier = {"interface_digest": "sha256:" + "1" * 64, "skill_interface": document}
        declared, expected = digest_of(carrier), "carrier_as_sent"
    elif variant == "empty":
        declared = digest_of({"interface_digest": "", "skill_interface": document})
        carrier, expected = (
            {"interface_digest": declared, "skill_interface": document},
            "carrier_empty_digest",
        )
    else:
        declared = digest_of({"skill_interface": document})
        carrier, expected = (
            {"interface_digest": declared, "skill_interface": document},
            "carrier_without_digest",
        )
    verdict = diagnose_digest(declared, document, carrier=carrier)
    assert verdict.matched == expected and "SID6" in verdict.explanation


def test_format_mistakes_on_the_right_hash() -> None:
    right = digest_of(VALUE)
    assert diagnose_digest(right, VALUE).matched == "correct"
    assert diagnose_digest(right[7:], VALUE).matched == "missing_prefix"
    verdict = diagnose_digest("sha256:" + right[7:].upper(), VALUE)
    assert verdict.matched == "uppercase_hex" and "lowercase" in verdict.explanation


def test_combined_mistake_uppercase_of_json_dumps_is_still_found() -> None:
    declared = _sha(json.dumps(VALUE, sort_keys=True).encode()).upper()
    assert diagnose_digest(declared, VALUE).matched == "json_dumps_sorted"


def test_unexplained_mismatch_says_the_content_changed() -> None:
    verdict = diagnose_digest("sha256:" + "0" * 64, VALUE)
    assert verdict.matched is None and "content probably changed" in verdict.explanation
    assert len(verdict.tried) > 8


def test_uncanonicalizable_value_is_reported() -> None:
    verdict = diagnose_digest("sha256:" + "0" * 64, [2**60])
    assert verdict.matched is None and "cannot be canonicalized" in verdict.explanation
