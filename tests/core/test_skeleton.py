"""Argument skeletons prefilled from an input schema."""

from __future__ import annotations

from sia_tui.core.schemas.skeleton import skeleton_for
from sia_tui.core.schemas.validation import compile_schema
from tests.support.documents import INPUT_SCHEMA


def test_skeleton_of_the_example_input_follows_refs_and_picks_enum_values() -> None:
    skeleton = skeleton_for(INPUT_SCHEMA)
    assert skeleton == {
        "resource_id": "x",
        "condition": {"metric": "utilization", "operator": "gte", "threshold": 0},
    }


def test_preference_order_const_default_examples_enum() -> None:
    schema = {
        "type": "object",
        "required": ["a", "b", "c", "d", "e"],
        "properties": {
            "a": {"const": "fixed", "default": "no"},
            "b": {"default": 7, "examples": [1]},
            "c": {"examples": ["ex"], "enum": ["x"]},
            "d": {"enum": [False, True]},
            "e": {"type": "string", "format": "date-time"},
        },
    }
    assert skeleton_for(schema) == {
        "a": "fixed",
        "b": 7,
        "c": "ex",
        "d": False,
        "e": "2026-01-01T00:00:00Z",
    }


def test_optional_members_are_left_out_and_bounds_respected() -> None:
    schema = {
        "type": "object",
        "required": ["n", "items"],
        "properties": {
            "n": {"type": "integer", "minimum": 3},
            "opt": {"type": "string"},
            "items": {"type": "array", "minItems": 2, "items": {"type": ["null", "number"]}},
        },
    }
    assert skeleton_for(schema) == {"n": 3, "items": [0, 0]}


def test_recursive_and_remote_refs_terminate() -> None:
    recursive = {"type": "object", "required": ["child"], "properties": {"child": {"$ref": "#"}}}
    value = skeleton_for(recursive)
    depth = 0
    while isinstance(value, dict) and "child" in value:
        value, depth = value["child"], depth + 1
    assert 5 < depth <= 13
    assert skeleton_for({"$ref": "https://example.com/x.json"}) is None
    assert skeleton_for({"allOf": [{"$ref": "#"}]}) is None


def test_skeleton_validates_against_a_simple_schema() -> None:
    schema = {
        "type": "object",
        "required": ["id", "when"],
        "properties": {
            "id": {"type": "string", "default": "r1"},
            "when": {"type": "string", "format": "date-time"},
        },
    }
    assert compile_schema(schema).is_valid(skeleton_for(schema))


def test_string_placeholders_respect_min_and_max_length() -> None:
    """A skeleton that fails minLength the moment the editor opens would be noise."""
    schema = {
        "type": "object",
        "required": ["a", "b"],
        "properties": {
            "a": {"type": "string", "minLength": 3},
            "b": {"type": "string", "maxLength": 0},
        },
    }
    assert skeleton_for(schema) == {"a": "xxx", "b": ""}


def test_every_reference_skill_skeleton_validates() -> None:
    """The demo's editor opens on valid arguments for every reference-agent skill."""
    from sia_tui.agent.catalog import SKILLS

    for spec in SKILLS:
        schema = spec.input_schema.schema
        assert compile_schema(schema).validate(skeleton_for(schema)) == [], spec.skill_id
