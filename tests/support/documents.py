"""Builders for the core tests: a valid Skill Interface Document and its parts."""

from __future__ import annotations

import copy
from typing import Any

from sia_tui.core.findings import Finding, Severity
from sia_tui.core.interface.document import (
    validate_document,
    verify_digests,
    verify_embedded_schemas,
)
from sia_tui.core.jsonkit.canonical import digest_of

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["resource_id", "condition"],
    "additionalProperties": False,
    "properties": {
        "resource_id": {"type": "string", "minLength": 1},
        "condition": {"$ref": "#/$defs/condition"},
    },
    "$defs": {
        "condition": {
            "type": "object",
            "required": ["metric", "operator", "threshold"],
            "properties": {
                "metric": {"enum": ["utilization", "errors"]},
                "operator": {"enum": ["gte", "lte"]},
                "threshold": {"type": "number"},
                "unit": {"const": "percent"},
            },
        }
    },
}
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["result"],
    "properties": {
        "result": {"enum": ["condition_met", "condition_not_met"]},
        "observed_at": {"type": "string", "format": "date-time"},
    },
}
RECORD_SCHEMA: dict[str, Any] = {"type": "object", "required": ["record_id"]}


def reference(schema: Any, uri: str = "https://example.net/schemas/x") -> dict[str, Any]:
    """A correct inline Schema Reference for ``schema`` (RULES SR1-SR4)."""
    return {
        "schema_uri": uri,
        "version": "1.0",
        "dialect": "https://json-schema.org/draft/2020-12/schema",
        "digest": digest_of(schema),
        "resolution": {"type": "inline", "schema": copy.deepcopy(schema)},
    }


def make_document() -> dict[str, Any]:
    """A Skill Interface Document that passes every check."""
    return {
        "interface_version": "1.0",
        "skill_id": "evaluate_resource_condition",
        "skill_version": "1.0",
        "input_schema": reference(INPUT_SCHEMA, "https://example.net/schemas/in"),
        "output_schema": reference(OUTPUT_SCHEMA, "https://example.net/schemas/out"),
        "supporting_record_schemas": {
            "resource-observation": reference(RECORD_SCHEMA, "https://example.net/schemas/rec")
        },
        "interaction": {"response_modes": ["sync", "stream"], "cancellable": False},
        "constraints": {},
        "authority": {"default_mode": "observe_only", "approval_may_be_required": False},
    }


def document_errors(
    document: Any,
    *,
    skill_id: str,
    skill_version: str,
    advertised: str | None,
    returned: str | None,
) -> list[Finding]:
    """The error findings of steps 4-6 (CP4, CP5, CP6) on one document, as the engine runs them."""
    findings = list(verify_digests(document, advertised, returned).findings)
    findings += validate_document(document, skill_id=skill_id, skill_version=skill_version)
    findings += [f for check in verify_embedded_schemas(document) for f in check.findings]
    return [f for f in findings if f.severity is Severity.ERROR]


def condition_schema(document: dict[str, Any]) -> dict[str, Any]:
    """The ``condition`` object schema of a ``make_document`` input (edit it in place)."""
    schema: dict[str, Any] = document["input_schema"]["resolution"]["schema"]["$defs"]["condition"]
    return schema


def reseal_input(document: dict[str, Any], version: str) -> dict[str, Any]:
    """The input digest recomputed after an edit, and the skill version set."""
    ref = document["input_schema"]
    ref["digest"] = digest_of(ref["resolution"]["schema"])
    document["skill_version"] = version
    return document


def threshold_meaning_pair() -> tuple[dict[str, Any], dict[str, Any]]:
    """1.0 says the threshold is a percentage, 1.1 a ratio: validation is the same (the seed:
    a "threshold" may be a percentage, a count or a ratio)."""
    old, new = make_document(), make_document()
    condition_schema(old)["properties"]["threshold"]["description"] = "threshold in percent"
    condition_schema(new)["properties"]["threshold"]["description"] = (
        "threshold is a RATIO 0..1, not a percentage"
    )
    return reseal_input(old, "1.0"), reseal_input(new, "1.1")
