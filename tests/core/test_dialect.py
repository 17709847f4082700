"""RULES SR2: an embedded schema whose own $schema names another draft than 2020-12 is a
warning naming both, and an error where the two drafts validate it differently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.codes import ErrorCode
from sia_tui.core.findings import Severity
from sia_tui.core.interface.document import verify_embedded_schemas
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.schemas.dialect import named_draft
from tests.support.documents import make_document, reference

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_04 = "http://json-schema.org/draft-04/schema#"
DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"
SCHEMA = "/output_schema/resolution/schema"


def _findings(schema: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    document = make_document()
    document["output_schema"] = reference(schema)
    check = verify_embedded_schemas(document)[1]
    return [(str(f.severity), f.pointer, f.rule) for f in check.findings]


def test_sr2_another_draft_with_nothing_that_differs_is_a_warning_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = make_document()
    schema = document["output_schema"]["resolution"]["schema"]
    document["output_schema"] = reference({"$schema": DRAFT_07, **schema})
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    assert main(["lint", str(path), "--digest", digest_of(document)]) == 0
    out = capsys.readouterr().out
    assert (
        f"warning: {SCHEMA}/$schema: the embedded schema's $schema names JSON Schema "
        "draft-07, but the Schema Reference's dialect is 2020-12 and interface 1.0 fixes it: "
        "sia-tui validates it as 2020-12 [SR2]"
    ) in out
    assert out.endswith("ok: the document passes CP4, CP5 and CP6, with 1 warning(s)\n")


@pytest.mark.parametrize(
    "schema, keyword_pointer, words",
    [
        (
            {"$schema": DRAFT_07, "$ref": "#/$defs/n", "minimum": 3, "$defs": {"n": {}}},
            "/$ref",
            "draft-07 ignores the keywords beside $ref (minimum); 2020-12 applies them",
        ),
        (
            {"$schema": DRAFT_07, "dependencies": {"a": ["b"]}},
            "/dependencies",
            "2020-12 splits it into dependentRequired and dependentSchemas",
        ),
        (
            {"$schema": DRAFT_2019, "items": [{"type": "string"}], "additionalItems": False},
            "/items",
            "an array of items is 2019-09's tuple form and additionalItems for the rest",
        ),
        (
            {"$schema": DRAFT_07, "properties": {"a": {"unevaluatedProperties": False}}},
            "/properties/a/unevaluatedProperties",
            "draft-07 does not know unevaluatedProperties and ignores it; 2020-12 applies it",
        ),
        (
            {"$schema": DRAFT_04, "properties": {"a": {"const": 1}}},
            "/properties/a/const",
            "draft-04 does not know const",
        ),
        (
            {"$schema": DRAFT_2019, "$recursiveRef": "#"},
            "/$recursiveRef",
            "2020-12 replaced it with $dynamicRef and ignores it",
        ),
    ],
    ids=["ref-siblings", "dependencies", "items-array", "unevaluated", "const", "recursive-ref"],
)
def test_sr2_another_draft_that_validates_differently_is_interface_invalid(
    schema: dict[str, Any], keyword_pointer: str, words: str
) -> None:
    document = make_document()
    document["output_schema"] = reference(schema)
    check = verify_embedded_schemas(document)[1]
    assert not check.ok
    [warning] = [f for f in check.findings if f.severity is Severity.WARNING]
    assert warning.pointer == f"{SCHEMA}/$schema" and warning.rule == "SR2"
    [error] = [
        f for f in check.findings if f.pointer == SCHEMA + keyword_pointer and "says" in f.message
    ]
    assert error.rule == "SR2" and error.code is ErrorCode.INTERFACE_INVALID
    assert error.message.startswith("the embedded schema says it is JSON Schema ")
    assert "but interface 1.0 validates it as 2020-12" in error.message and words in error.message


def test_sr2_keywords_inside_instance_values_are_not_keywords() -> None:
    """A property named "dependencies" or an enum value is data, never a keyword."""
    schema = {
        "$schema": DRAFT_07,
        "properties": {"dependencies": {"type": "string"}, "$ref": {"enum": ["const"]}},
        "examples": [{"dependencies": "x", "const": 1}],
    }
    assert [rule for _, _, rule in _findings(schema)] == ["SR2"]  # the warning only


def test_sr2_a_nested_schema_naming_another_draft_is_judged_under_its_own_draft() -> None:
    nested = {"$id": "https://example.net/n", "$schema": DRAFT_07, "dependencies": {"a": ["b"]}}
    findings = _findings({"type": "object", "properties": {"n": nested}})
    assert ("warning", f"{SCHEMA}/properties/n/$schema", "SR2") in findings
    assert ("error", f"{SCHEMA}/properties/n/dependencies", "SR2") in findings


def test_sr2_an_unknown_dialect_is_a_warning_and_2020_12_spellings_are_quiet() -> None:
    [(severity, pointer, rule)] = _findings(
        {"$schema": "https://example.net/meta", "type": "object"}
    )
    assert (severity, pointer, rule) == ("warning", f"{SCHEMA}/$schema", "SR2")
    for uri in (
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    ):
        assert named_draft(uri) == "2020-12"
        assert _findings({"$schema": uri, "type": "object"}) == []
