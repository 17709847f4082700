"""Errors of a big instance, listed part by part: every error of ordinary arguments is
listed whatever their size, and a flood costs bounded memory (schemas/error_listing.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sia_tui.core import limits
from sia_tui.core.bounded import MORE_RULE, MoreFindings, error_count_text
from sia_tui.core.findings import Severity
from sia_tui.core.schemas.validation import compile_schema, validate_json_text

ITEM = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "note": {"type": "string", "maxLength": 100}},
    "required": ["id", "note"],
    "additionalProperties": False,
}
NOTES = {
    "type": "object",
    "properties": {"label": {"type": "string"}, "notes": {"type": "array", "items": ITEM}},
    "required": ["label"],
    "additionalProperties": False,
}


def notes(count: int) -> dict[str, Any]:
    """A valid value of ``NOTES`` with ``count`` objects (3 values each) in an array."""
    return {"label": "x", "notes": [{"id": i, "note": "padding " * 4} for i in range(count)]}


def located(findings: list[Any]) -> list[tuple[str, str | None, str | None]]:
    return [(f.pointer, f.keyword, f.schema_path) for f in findings]


def test_three_errors_among_thousands_of_values_are_all_listed() -> None:
    """~30 KB of objects used to list only the first error ("further errors, if any, are
    not listed"). Each error is listed, at its member, with its real schema location."""
    value = notes(3000)
    value["notes"][5]["id"] = "five"
    value["notes"][2000]["extra"] = True
    del value["label"]
    findings = compile_schema(NOTES).validate(value)
    assert located(findings) == [
        ("", "required", "/required"),
        ("/notes/5/id", "type", "/properties/notes/items/properties/id/type"),
        ("/notes/2000", "additionalProperties", "/properties/notes/items/additionalProperties"),
    ]
    assert not any(f.rule == MORE_RULE for f in findings)


def test_listing_in_parts_finds_what_one_call_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same errors, locations, keywords and schema paths whether the instance is
    listed in one call or split into parts (forced here with a tiny listing bound)."""
    schema = {
        "$defs": {"item": ITEM},
        "type": "object",
        "properties": {
            "label": {"type": "string", "minLength": 2},
            "notes": {"type": "array", "items": {"$ref": "#/$defs/item"}, "maxItems": 10},
        },
        "required": ["label", "owner"],
        "additionalProperties": False,
    }
    value = notes(12)
    value["extra"] = 1
    value["notes"][3] = {"id": "3", "note": 4, "more": 5}
    value["notes"][9]["note"] = "n" * 200
    whole = compile_schema(schema).validate(value)
    monkeypatch.setattr(limits, "MAX_LISTING_WORK", 1)
    compile_schema.__globals__["_CACHE"].clear()
    parts = compile_schema(schema).validate(value)
    assert len(whole) == 8
    assert sorted(located(parts)) == sorted(located(whole))


def test_a_flood_is_counted_up_to_a_bound_in_bounded_time() -> None:
    """800,000 wrong items: a thousand listed, counting stops at MAX_COUNTED_ERRORS and the
    closing finding says "at least" (the memory is the benchmark's: benchmarks/)."""
    compiled = compile_schema({"type": "array", "items": {"type": "string"}})
    findings = compiled.validate(list(range(800_000)))
    assert len(findings) == limits.MAX_FINDINGS + 1
    closing = findings[-1]
    assert isinstance(closing, MoreFindings) and closing.at_least
    assert error_count_text(findings) == f"at least {limits.MAX_COUNTED_ERRORS}"
    exact = compiled.validate(list(range(limits.MAX_COUNTED_ERRORS)))
    assert error_count_text(exact) == str(limits.MAX_COUNTED_ERRORS)


def test_a_big_value_its_schema_judges_whole_lists_its_first_error_with_a_note() -> None:
    """anyOf over a big array cannot be split: the first error, then a note that is not a
    problem itself (the editor's status line counts 1)."""
    schema = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
    result = validate_json_text(compile_schema(schema), str(list(range(50_000))))
    first, note = result.findings
    assert first.severity is Severity.ERROR
    assert (note.rule, note.severity) == (MORE_RULE, Severity.INFO)
    assert note.message.startswith('further errors inside "" (root), if any, are not listed')
    # The note's arithmetic holds: values x members is the figure it compares.
    found = re.search(
        r"(\d+) values against a schema of (\d+) members .* cost (\d+) ", note.message
    )
    assert found is not None and found.group(1) == "50001"
    values, members, product = (int(g) for g in found.groups())
    assert values * members == product > limits.MAX_LISTING_WORK
    assert (result.problem_count, result.problems) == (1, "1")
