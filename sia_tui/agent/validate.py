"""Instance and document checks the agent runs, on the core's validator."""

from __future__ import annotations

from typing import Any

from sia_tui.core.bounded import MORE_RULE
from sia_tui.core.constants import DIALECT_2020_12, INTERFACE_VERSION
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.jsonkit.pointer import escape
from sia_tui.core.schemas.sischema import load_skill_interface_schema
from sia_tui.core.schemas.validation import check_schema, compile_schema


def schema_details(schema: dict[str, Any], instance: Any) -> list[dict[str, str]]:
    """The draft's ``details`` entries for ``instance`` against ``schema`` (RULES ERR5)."""
    findings = compile_schema(schema).validate(instance)
    return [f.as_detail() for f in findings if f.rule != MORE_RULE]


def boundary_details(instance: Any) -> list[dict[str, str]]:
    """The ``rejects-boundary`` fault's wrong refusal: every one-character string, though
    ``minLength: 1`` allows it (a vendor's off-by-one), as a located detail."""
    out: list[dict[str, str]] = []
    stack: list[tuple[str, Any]] = [("", instance)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str) and len(value) == 1:
            out.append({"instance_path": path, "message": "too short"})
        elif isinstance(value, dict):
            stack += [(f"{path}/{escape(k)}", v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{path}/{n}", v) for n, v in enumerate(value)]
    return out


def check_document(document: dict[str, Any], *, verify_digests: bool) -> None:
    """Validate one assembled document before it is frozen; raise ValueError if defective.

    RULES SID7 (trusted Skill Interface Schema), SID1, SID8, SR2, CP6 (embedded digests).
    """
    problems = schema_details(load_skill_interface_schema(), document)
    if problems:
        raise ValueError(f"{document['skill_id']}: not a valid document: {problems[:3]}")
    if document["interface_version"] != INTERFACE_VERSION:
        raise ValueError("interface_version must be 1.0")
    if document["skill_id"] in document["supporting_record_schemas"]:
        raise ValueError("a record kind equals the skill id (RULES SID8)")
    refs = [
        document["input_schema"],
        document["output_schema"],
        *document["supporting_record_schemas"].values(),
    ]
    for ref in refs:
        schema = ref["resolution"]["schema"]
        if check_schema(schema):
            raise ValueError(f"embedded schema {ref['schema_uri']} is not valid 2020-12")
        if ref["dialect"] != DIALECT_2020_12:
            raise ValueError("dialect must be JSON Schema 2020-12 (RULES SR2)")
        if verify_digests and ref["digest"] != digest_of(schema):
            raise ValueError(f"embedded digest of {ref['schema_uri']} is wrong (RULES CP6)")
