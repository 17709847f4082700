"""Instance validation: located findings, real schema paths, no network (ERR5, FMT1, FMT2, SR7)."""

from __future__ import annotations

import socket
import urllib.request
from typing import Any

import pytest

from sia_tui.core.errors import SchemaError
from sia_tui.core.schemas.validation import check_schema, compile_schema, validate_json_text
from tests.support.documents import INPUT_SCHEMA

ARGS_TEXT = """{
  "resource_id": "network-resource-123",
  "condition": {
    "metric": "utilization",
    "operator": "gte",
    "threshold": "80"
  },
  "extra": 1
}"""


def test_err5_details_follow_the_wire_example() -> None:
    compiled = compile_schema(INPUT_SCHEMA)
    result = validate_json_text(compiled, ARGS_TEXT)
    assert result.parse_error is None and not result.ok
    threshold = next(f for f in result.findings if f.keyword == "type")
    # RULES ERR5 + FMT2: instance_path is a JSON Pointer; schema_path is the real location
    # of the failing keyword, through the $ref into $defs.
    assert threshold.as_detail() == {
        "instance_path": "/condition/threshold",
        "schema_path": "/$defs/condition/properties/threshold/type",
        "keyword": "type",
        "expected": "number",
        "actual": "string",
    }
    assert (threshold.line, threshold.column) == (6, 18)


def test_findings_are_sorted_by_position_in_the_instance() -> None:
    compiled = compile_schema(INPUT_SCHEMA)
    findings = validate_json_text(compiled, ARGS_TEXT).findings
    assert [f.pointer for f in findings] == ["", "/condition/threshold"]
    assert findings[0].keyword == "additionalProperties"
    without_text = compiled.validate({"extra": 1, "condition": {"metric": "x"}})
    assert [f.pointer for f in without_text][:1] == [""]
    assert without_text[-1].pointer == "/condition/metric"


def test_required_finding_names_the_missing_member() -> None:
    finding = compile_schema(INPUT_SCHEMA).validate({"condition": {}})[0]
    assert finding.keyword == "required" and finding.pointer == ""
    assert finding.expected == '["resource_id"]' and finding.actual == "missing"


def test_actual_is_truncated() -> None:
    compiled = compile_schema({"type": "object", "properties": {"s": {"maxLength": 3}}})
    finding = compiled.validate({"s": "x" * 10_000})[0]
    assert finding.actual is not None and len(finding.actual) <= 120
    assert finding.actual.endswith("…") and len(finding.message) <= 300


@pytest.mark.parametrize(
    "value, valid",
    [
        ("1998-12-31T23:59:60Z", True),
        ("1998-12-31T15:59:60.123-08:00", True),
        ("1963-06-19t08:30:06.283185z", True),
        ("2024-02-29T00:00:00Z", True),
        ("2023-02-29T00:00:00Z", False),
        ("1985-04-12T23:20:50Z\n", False),
        ("1998-12-31T23:58:60Z", False),
        ("2016-12-31T24:59:60+01:00", False),
        ("1985-04-12T23:20:50+01", False),
        ("1963-06-1৪T00:00:00Z", False),
        (42, True),
    ],
)
def test_fmt1_date_time_is_asserted(value: object, valid: bool) -> None:
    compiled = compile_schema({"format": "date-time"})
    assert compiled.is_valid(value) is valid  # RULES FMT1: asserted, not annotated


def test_sr7_remote_ref_is_an_error_and_makes_no_network_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        raise AssertionError("network used")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    schema = {"properties": {"a": {"$ref": "https://example.com/a.json"}}}
    with pytest.raises(SchemaError) as info:
        compile_schema(schema)
    assert "https://example.com/a.json" in str(info.value) and "SR7" in str(info.value)
    assert check_schema(schema) == []  # a valid schema; only its completion is refused
    assert calls == []


def test_regex_dialect_is_ecma_262() -> None:
    compiled = compile_schema({"pattern": "^\\p{Letter}+$"})
    assert compiled.is_valid("héllo") and not compiled.is_valid("h3llo")
    with pytest.raises(SchemaError) as info:
        compile_schema({"properties": {"p": {"pattern": "(("}}})
    assert info.value.pointer == "/properties/p/pattern"
    assert [f.pointer for f in check_schema({"pattern": "(("})] == ["/pattern"]


def test_schema_path_through_nested_id_is_the_real_location() -> None:
    schema = {
        "$id": "https://example.net/root",
        "properties": {"a": {"$ref": "item"}},
        "$defs": {"item": {"$id": "item", "type": "string"}},
    }
    finding = compile_schema(schema).validate({"a": 1})[0]
    assert finding.schema_path == "/$defs/item/type" and finding.pointer == "/a"


def test_invalid_schema_raises_with_pointer() -> None:
    with pytest.raises(SchemaError) as info:
        compile_schema({"properties": {"x": {"minimum": "zero"}}})
    assert info.value.pointer == "/properties/x/minimum"
    with pytest.raises(SchemaError, match="object or a boolean"):
        compile_schema([1])


def test_compiled_schemas_are_cached_by_digest_and_isolated() -> None:
    schema = {"type": "integer"}
    first = compile_schema(schema)
    schema["type"] = "string"  # mutating the caller's dict must not change the compiled one
    assert first.is_valid(3)
    assert compile_schema({"type": "integer"}) is first
    assert compile_schema(schema) is not first


def test_boolean_schemas() -> None:
    assert compile_schema(True).is_valid({"anything": 1})
    assert not compile_schema(False).is_valid(None)


def test_validate_json_text_reports_parse_errors() -> None:
    result = validate_json_text(compile_schema(INPUT_SCHEMA), '{"resource_id": "x",}')
    assert result.value is None and result.parse_error is not None and not result.ok
    assert result.parse_error.line == 1 and result.findings == []


def test_validate_json_text_walks_the_parsed_value_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Strict parsing already bounds the nesting; a second walk of a 1 MB document took a
    # third of the editor's validation time.
    from sia_tui.core.schemas import validation

    walks: list[int] = []
    monkeypatch.setattr(validation, "_too_deep", lambda value, limit: walks.append(limit))
    result = validate_json_text(compile_schema(INPUT_SCHEMA), '{"resource_id": 7}')
    assert result.problem_count >= 1 and walks == []


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def test_deep_recursive_instance_does_not_crash() -> None:
    # The native engine would overflow its stack at ~20,000 levels and kill the process.
    compiled = compile_schema({"items": {"$ref": "#"}, "type": "array"})
    assert compiled.validate(_nested(200)) == []
    findings = compiled.validate(_nested(100_000))
    assert [f.message for f in findings] == [
        "the instance nests deeper than 256 levels and is not validated"
    ]
    assert not compiled.is_valid(_nested(100_000))


@pytest.mark.parametrize(
    "pattern, text, ok",
    [
        ("^[0-9]+$", "12\n", False),
        ("^[0-9]+$", "12", True),
        ("[$]", "$", True),
        ("a\\$", "a$", True),
        ("^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$", "1.0\n", False),
    ],
)
def test_pattern_dollar_follows_ecma_262(pattern: str, text: str, ok: bool) -> None:
    # Python's $ matches before a final newline; ECMA-262's does not.
    assert compile_schema({"pattern": pattern}).is_valid(text) is ok
