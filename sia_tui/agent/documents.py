"""Assemble, validate and freeze the Skill Interface Documents at start-up (RULES DS3)."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sia_tui.agent.catalog import SKILLS, SkillSpec
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import Fault
from sia_tui.agent.schemas import DomainSchema
from sia_tui.agent.validate import check_document
from sia_tui.core.constants import (
    DIALECT_2020_12,
    DIGEST_PREFIX,
    INLINE_RESOLUTION,
    INTERFACE_VERSION,
)
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.jsonkit.numbers import lax_canonical

Digester = Callable[[Any], str]

#: The skill whose embedded input-schema digest the ``schema-digest`` fault corrupts.
FAULTED_SKILL = "evaluate_resource_condition"


def not_jcs_digest(value: Any) -> str:
    """The ``not-jcs`` vendor bug: SHA-256 over ``json.dumps`` with default separators."""
    return DIGEST_PREFIX + hashlib.sha256(json.dumps(value).encode("utf-8")).hexdigest()


def exact_digits_digest(value: Any) -> str:
    """The ``bigint-digest`` vendor bug: RFC 8785, except that integers beyond 2**53 - 1
    are written in their exact digits (which RFC 8785 cannot write at all)."""
    return DIGEST_PREFIX + hashlib.sha256(lax_canonical(value)).hexdigest()


#: The Counter64 maximum the ``bigint-digest`` fault puts in a schema bound.
COUNTER64_MAX = 2**64 - 1


def _with_counter64_bound(spec: SkillSpec) -> SkillSpec:
    """``spec`` with ``maximum: 2**64 - 1`` on its input's condition.threshold."""
    schema = json.loads(json.dumps(spec.input_schema.schema))
    schema["properties"]["condition"]["properties"]["threshold"]["maximum"] = COUNTER64_MAX
    return replace(spec, input_schema=replace(spec.input_schema, schema=schema))


def corrupt(digest: str) -> str:
    """A well-formed digest that differs from ``digest`` in its last hex digit."""
    last = "0" if digest[-1] != "0" else "1"
    return digest[:-1] + last


@dataclass(frozen=True)
class FrozenDocument:
    """One validated document, kept as its JSON text so nothing can mutate it (RULES DS3)."""

    skill_id: str
    skill_version: str
    #: The digest this agent computed once at start-up (RULES SID6).
    interface_digest: str
    text: str
    spec: SkillSpec

    def document(self) -> dict[str, Any]:
        """A fresh copy of the document; callers may not change the frozen one."""
        value: dict[str, Any] = json.loads(self.text)
        return value

    def input_schema(self) -> dict[str, Any]:
        """The embedded input schema."""
        return self.spec.input_schema.schema

    def output_schema(self) -> dict[str, Any]:
        """The embedded output schema."""
        return self.spec.output_schema.schema


def schema_reference(domain: DomainSchema, digester: Digester) -> dict[str, Any]:
    """A Schema Reference with the schema inline (RULES SR1-SR4)."""
    return {
        "schema_uri": domain.schema_uri,
        "version": domain.version,
        "dialect": DIALECT_2020_12,
        "digest": digester(domain.schema),
        "resolution": {"type": INLINE_RESOLUTION, "schema": domain.schema},
    }


def assemble(spec: SkillSpec, digester: Digester) -> dict[str, Any]:
    """The nine-member document of RULES SID1 for ``spec``."""
    return {
        "interface_version": INTERFACE_VERSION,
        "skill_id": spec.skill_id,
        "skill_version": spec.skill_version,
        "input_schema": schema_reference(spec.input_schema, digester),
        "output_schema": schema_reference(spec.output_schema, digester),
        "supporting_record_schemas": {
            kind: schema_reference(domain, digester) for kind, domain in spec.records.items()
        },
        "interaction": {
            "response_modes": list(spec.response_modes),
            "cancellable": spec.cancellable,
        },
        "constraints": dict(spec.constraints),
        "authority": {
            "default_mode": spec.default_mode,
            "approval_may_be_required": spec.approval_may_be_required,
        },
    }


#: Drift faults -> (the change to the input schema, the skill_version then advertised).
_DRIFTS = {
    Fault.DRIFT_SAME_VERSION: ("optional-member", "1.0"),
    Fault.DRIFT_COMPATIBLE_BUMP: ("optional-member", "1.1"),
    Fault.DRIFT_BREAKING_BUMP: ("narrower-enum", "2.0"),
    Fault.DRIFT_WRONG_BUMP: ("narrower-enum", "1.1"),
}


def drifted(spec: SkillSpec, config: AgentConfig) -> SkillSpec:
    """The faulted skill as a drift fault changes it since 1.0, so a contract lock pinned
    from the correct agent sees drift, a compatible or breaking bump, or a wrong one."""
    drift = next((_DRIFTS[f] for f in _DRIFTS if config.has(f)), None)
    if drift is None or spec.skill_id != FAULTED_SKILL:
        return spec
    change, version = drift
    schema = copy.deepcopy(spec.input_schema.schema)  # the module's schemas stay intact
    if change == "optional-member":  # compatible: old clients never send it
        schema["properties"]["window_seconds"] = {"type": "integer", "minimum": 1}
    else:  # breaking: an operator a client could send is now refused
        schema["properties"]["condition"]["properties"]["operator"]["enum"] = ["gt", "gte", "lt"]
    domain = replace(spec.input_schema, version=version, schema=schema)
    return replace(spec, input_schema=domain, skill_version=version)


def build_documents(config: AgentConfig) -> dict[str, FrozenDocument]:
    """Assemble and validate every domain document once; raise if one is defective."""
    digester: Digester = not_jcs_digest if config.has(Fault.NOT_JCS) else digest_of
    frozen: dict[str, FrozenDocument] = {}
    for declared in SKILLS:
        spec = drifted(declared, config)
        bigint = config.has(Fault.BIGINT_DIGEST) and spec.skill_id == FAULTED_SKILL
        if bigint:
            spec = _with_counter64_bound(spec)
        digest = exact_digits_digest if bigint else digester
        document = assemble(spec, digest)
        faulty_schema = config.has(Fault.SCHEMA_DIGEST) and spec.skill_id == FAULTED_SKILL
        if faulty_schema:
            ref = document["input_schema"]
            ref["digest"] = corrupt(ref["digest"])
        # The faults deliberately break digests; everything else must hold (RULES SID7, CP6).
        broken = faulty_schema or bigint or config.has(Fault.NOT_JCS)
        check_document(document, verify_digests=not broken)
        frozen[spec.skill_id] = FrozenDocument(
            spec.skill_id,
            spec.skill_version,
            digest(document),
            json.dumps(document, ensure_ascii=False),
            spec,
        )
    return frozen
