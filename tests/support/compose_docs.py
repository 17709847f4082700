"""Builders of crafted Skill Interface Documents; run as a script to rewrite the fixtures."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from sia_tui.core.constants import DIALECT_2020_12, INLINE_RESOLUTION
from sia_tui.core.jsonkit.canonical import digest_of

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "documents"
BASE_URI = "https://example.net/schemas/"


def reference(uri: str, schema: dict[str, Any], version: str = "1.0") -> dict[str, Any]:
    """A Schema Reference with a correct digest (RULES SR4)."""
    return {
        "schema_uri": BASE_URI + uri,
        "version": version,
        "dialect": DIALECT_2020_12,
        "digest": digest_of(schema),
        "resolution": {"type": INLINE_RESOLUTION, "schema": schema},
    }


def reseal(document: dict[str, Any]) -> dict[str, Any]:
    """Recompute every embedded digest after a test edited a schema in place."""
    refs = [
        document["input_schema"],
        document["output_schema"],
        *document["supporting_record_schemas"].values(),
    ]
    for ref in refs:
        ref["digest"] = digest_of(ref["resolution"]["schema"])
    return document


def reservation_v1() -> dict[str, Any]:
    """The base document every diff fixture starts from (version 1.0)."""
    input_schema = {
        "$schema": DIALECT_2020_12,
        "title": "Reservation request",
        "type": "object",
        "properties": {
            "link_id": {"type": "string", "minLength": 1, "maxLength": 200},
            "mbps": {"type": "number", "exclusiveMinimum": 0, "maximum": 100000},
            "priority": {"enum": ["low", "normal", "high"]},
            "start": {"type": "string", "format": "date-time"},
            "window": {"$ref": "#/$defs/window"},
        },
        "required": ["link_id", "mbps"],
        "additionalProperties": False,
        "$defs": {
            "window": {
                "type": "object",
                "properties": {"minutes": {"type": "integer", "minimum": 1}},
                "required": ["minutes"],
            }
        },
    }
    output_schema = {
        "$schema": DIALECT_2020_12,
        "type": "object",
        "properties": {
            "reservation_id": {"type": "string", "pattern": "^res-[0-9]+$"},
            "status": {"enum": ["granted", "denied"]},
            "granted_mbps": {"type": "number", "minimum": 0},
            "supporting_record_refs": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        },
        "required": ["reservation_id", "status"],
        "additionalProperties": False,
    }
    ledger = {
        "$schema": DIALECT_2020_12,
        "type": "object",
        "properties": {"record_id": {"type": "string"}, "mbps": {"type": "number"}},
        "required": ["record_id"],
    }
    return {
        "interface_version": "1.0",
        "skill_id": "reserve_link_bandwidth",
        "skill_version": "1.0",
        "input_schema": reference("reservation-request", input_schema),
        "output_schema": reference("reservation-result", output_schema),
        "supporting_record_schemas": {"ledger-entry": reference("ledger-entry", ledger)},
        "interaction": {"response_modes": ["sync", "stream"], "cancellable": True},
        "constraints": {"max_input_bytes": 4096},
        "authority": {"default_mode": "recommend_only", "approval_may_be_required": False},
    }


def _schemas(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        document["input_schema"]["resolution"]["schema"],
        document["output_schema"]["resolution"]["schema"],
    )


def reservation_v1_1_compatible() -> dict[str, Any]:
    """Only compatible changes, minor bump: the version rule holds."""
    doc = copy.deepcopy(reservation_v1())
    doc["skill_version"] = "1.1"
    inp, out = _schemas(doc)
    inp["properties"]["priority"]["enum"].append("urgent")
    inp["properties"]["comment"] = {"type": "string", "maxLength": 500}
    out["properties"]["expires_at"] = {"type": "string", "format": "date-time"}
    doc["constraints"]["max_input_bytes"] = 8192
    return reseal(doc)


def reservation_v2_0_breaking() -> dict[str, Any]:
    """Breaking changes with a major bump: the version rule holds."""
    doc = copy.deepcopy(reservation_v1())
    doc["skill_version"] = "2.0"
    inp, out = _schemas(doc)
    inp["properties"]["tenant_id"] = {"type": "string"}
    inp["required"].append("tenant_id")
    out["properties"]["status"]["enum"].append("queued")
    return reseal(doc)


def reservation_v1_1_breaking() -> dict[str, Any]:
    """The same breaking changes, but only a minor bump: the version rule is violated."""
    doc = reservation_v2_0_breaking()
    doc["skill_version"] = "1.1"
    return doc


def write_fixtures() -> None:
    """Rewrite the JSON fixtures (documents and one describe_skill payload)."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    docs = {
        "reservation-1.0.json": reservation_v1(),
        "reservation-1.1-compatible.json": reservation_v1_1_compatible(),
        "reservation-2.0-breaking.json": reservation_v2_0_breaking(),
        "reservation-1.1-breaking.json": reservation_v1_1_breaking(),
    }
    for name, doc in docs.items():
        (FIXTURES / name).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    payload = {
        "interface_digest": digest_of(reservation_v1_1_compatible()),
        "skill_interface": reservation_v1_1_compatible(),
    }
    (FIXTURES / "reservation-1.1-payload.json").write_text(
        json.dumps(payload, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    write_fixtures()
