"""Invalid-argument generation: only the kinds a schema makes possible, each one confirmed by
the validator at the pointer the probe expects (RULES INV3, ERR5)."""

from __future__ import annotations

from typing import Any

import pytest

from sia_tui.core.probe.arguments import (
    breaking_arguments,
    example_arguments,
    jcs_size,
    oversized_arguments,
)
from sia_tui.core.probe.invalid_args import EXTRA_MEMBER, INVALID_KINDS, invalid_arguments
from sia_tui.core.probe.results import ProbeKind
from sia_tui.core.run.answer_types import ExampleArguments
from sia_tui.core.schemas.validation import compile_schema

K = ProbeKind
RICH: dict[str, Any] = {
    "$defs": {
        "mode": {"enum": ["a", "b"]},
        "level": {"type": "integer", "minimum": 1, "maximum": 5},
    },
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "mode": {"$ref": "#/$defs/mode"},
                    "level": {"$ref": "#/$defs/level"},
                },
                "required": ["mode"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["name", "items"],
    "examples": [{"name": "n", "items": [{"mode": "a", "level": 3}]}],
}
BASE = RICH["examples"][0]


@pytest.mark.parametrize(
    ("kind", "pointers", "changed"),
    [
        (K.INVALID_MISSING_REQUIRED, ("", "/name"), {"items": BASE["items"]}),
        (K.INVALID_WRONG_TYPE, ("/name",), {"name": 12345, "items": BASE["items"]}),
        (
            K.INVALID_EXTRA_MEMBER,
            ("/items/0", f"/items/0/{EXTRA_MEMBER}"),
            {"name": "n", "items": [{"mode": "a", "level": 3, EXTRA_MEMBER: True}]},
        ),
        (
            K.INVALID_ENUM_MISS,
            ("/items/0/mode",),
            {"name": "n", "items": [{"mode": "sia-tui-probe-not-in-enum", "level": 3}]},
        ),
        (
            K.INVALID_OUT_OF_RANGE,
            ("/items/0/level",),
            {"name": "n", "items": [{"mode": "a", "level": 0}]},
        ),
    ],
)
def test_each_kind_changes_one_member_through_refs_and_arrays(
    kind: ProbeKind, pointers: tuple[str, ...], changed: Any
) -> None:
    compiled = compile_schema(RICH)
    built = invalid_arguments(compiled, BASE, kind)
    assert not isinstance(built, str), built
    assert built.arguments == changed
    assert built.pointers == pointers
    assert {f.pointer for f in compiled.validate(built.arguments)} & set(pointers)
    assert BASE == {"name": "n", "items": [{"mode": "a", "level": 3}]}  # the base is intact


def test_kinds_the_schema_does_not_allow_are_skipped_with_a_reason() -> None:
    """An open object of free strings: no enum, no bound, nothing closed."""
    compiled = compile_schema(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    )
    reasons = {k: invalid_arguments(compiled, {"a": "x"}, k) for k in INVALID_KINDS}
    assert not isinstance(reasons[K.INVALID_MISSING_REQUIRED], str)
    assert not isinstance(reasons[K.INVALID_WRONG_TYPE], str)
    assert reasons[K.INVALID_EXTRA_MEMBER] == (
        "the input schema (as far as the valid arguments reach) declares no object closed "
        "by additionalProperties: false"
    )
    assert "no member with an enum" in str(reasons[K.INVALID_ENUM_MISS])
    assert "no number with minimum" in str(reasons[K.INVALID_OUT_OF_RANGE])


def test_integer_bounds_stay_integers_and_exclusive_bounds_are_hit_exactly() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "exclusiveMinimum": 0.5},
            "x": {"type": "number", "exclusiveMaximum": 10},
        },
    }
    compiled = compile_schema(schema)
    built = invalid_arguments(compiled, {"n": 3, "x": 2.5}, K.INVALID_OUT_OF_RANGE)
    assert not isinstance(built, str)
    assert built.arguments == {"n": 0, "x": 2.5}  # floor(0.5) = 0: an integer, out of range


def test_a_numeric_enum_is_missed_with_a_number() -> None:
    compiled = compile_schema({"properties": {"v": {"enum": [1, 2, 3]}}})
    built = invalid_arguments(compiled, {"v": 2}, K.INVALID_ENUM_MISS)
    assert not isinstance(built, str) and built.arguments == {"v": 4}


def test_a_number_member_gets_a_string_not_an_integer() -> None:
    """12345 is a valid "number": the wrong type must be really wrong."""
    compiled = compile_schema({"properties": {"v": {"type": "number"}}})
    built = invalid_arguments(compiled, {"v": 2}, K.INVALID_WRONG_TYPE)
    assert not isinstance(built, str) and built.arguments == {"v": "sia-tui probe: wrong type"}


def test_the_runs_example_if_valid_then_the_skeleton_then_nothing() -> None:
    """Run.answers.example_arguments is used only when it validates: the probe breaks valid
    input."""
    example = ExampleArguments(BASE, "the input schema's examples[0]")
    assert example_arguments(compile_schema(RICH), example) == (BASE, "example")
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    wrong = ExampleArguments({"a": 1}, "the input schema's examples[0]")
    assert example_arguments(compile_schema(closed), wrong) == ({"a": ""}, "skeleton")
    impossible = {"type": "string", "pattern": "^z$", "examples": ["nope"]}
    assert example_arguments(compile_schema(impossible), None) is None


def test_oversized_arguments_stay_valid_and_exceed_the_limit() -> None:
    compiled = compile_schema(RICH)
    built = oversized_arguments(compiled, BASE, 500)
    assert not isinstance(built, str)
    arguments, note = built
    assert compiled.is_valid(arguments)
    size = jcs_size(arguments)
    assert size is not None and size > 500
    assert note.startswith("/name padded to")


def test_oversized_is_impossible_when_no_string_may_grow() -> None:
    compiled = compile_schema({"properties": {"a": {"type": "string", "maxLength": 3}}})
    assert oversized_arguments(compiled, {"a": "abc"}, 100) == (
        "no string member of the valid arguments can grow and stay valid"
    )
    assert "at most" in str(oversized_arguments(compiled, {"a": "abc"}, 10**9))


def test_breaking_arguments_are_rejected_at_the_root() -> None:
    """The safety rule: wrong envelopes carry arguments no agent can act on."""
    compiled = compile_schema(RICH)
    broken = breaking_arguments(compiled)
    assert broken is not None and not compiled.is_valid(broken[0])
    assert breaking_arguments(compile_schema({})) is None  # accepts everything
