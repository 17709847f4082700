"""The composition check on crafted documents and the reference agent's pairs (CMP1-CMP3)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from sia_tui.agent.catalog import SKILLS_BY_ID
from sia_tui.agent.documents import assemble
from sia_tui.core.constants import DIALECT_2020_12
from sia_tui.core.interface.composition import check_composition
from sia_tui.core.jsonkit.canonical import digest_of
from tests.support.compose_docs import reference, reservation_v1

BANDWIDTH = {"link_id": "link-7", "value": 420.5, "unit": "Mbit/s"}


def agent_document(skill_id: str) -> dict[str, Any]:
    """The reference agent's document, assembled as the agent does (no server needed)."""
    return assemble(SKILLS_BY_ID[skill_id], digest_of)


def chain(output_ref: dict[str, Any], input_ref: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """An upstream document with ``output_ref`` and a downstream one with ``input_ref``."""
    up, down = reservation_v1(), reservation_v1()
    up["skill_id"], down["skill_id"] = "producer", "consumer"
    up["output_schema"], down["input_schema"] = output_ref, input_ref
    return up, down


SCHEMA = {
    "$schema": DIALECT_2020_12,
    "type": "object",
    "properties": {"value": {"type": "number"}},
    "required": ["value"],
}


def test_identical_pair_is_composable_but_only_structurally() -> None:
    verdict = check_composition(
        agent_document("measure_available_bandwidth"),
        agent_document("admit_traffic_demand"),
        instance=BANDWIDTH,
    )
    assert verdict.allowed and verdict.composable  # RULES CMP1
    assert verdict.differing == []
    assert verdict.instance_findings == []
    assert any("structural compatibility only" in n for n in verdict.notes)  # RULES CMP3


def test_look_alike_pair_is_refused_and_says_why() -> None:
    verdict = check_composition(
        agent_document("measure_link_capacity"),
        agent_document("admit_traffic_demand"),
        instance=BANDWIDTH,
    )
    assert not verdict.allowed  # RULES CMP2
    assert verdict.differing == ["schema_uri", "digest"]
    assert verdict.summary() == "direct composition not allowed: schema_uri, digest differ"
    assert "same structure once titles and descriptions are ignored" in verdict.look_alike[0]
    assert "the instance validates against both schemas" in verdict.look_alike
    assert any("available bandwidth" in n and "not enough" in n for n in verdict.notes)


@pytest.mark.parametrize("field", ["schema_uri", "version", "dialect", "digest"])
def test_each_identity_field_alone_prevents_composition(field: str) -> None:
    up_ref = reference("value", SCHEMA)
    down_ref = copy.deepcopy(up_ref)
    if field == "digest":  # a different schema is the only honest way to change the digest
        down_ref = reference("value", {**SCHEMA, "required": []})
    else:
        down_ref[field] = "https://example.net/other" if field != "version" else "1.1"
    verdict = check_composition(*chain(up_ref, down_ref))
    assert verdict.differing == [field]  # RULES CMP2: exactly which field
    assert not verdict.allowed


def test_identical_schemas_under_another_identity_are_called_identical() -> None:
    up_ref = reference("capacity", SCHEMA)
    verdict = check_composition(*chain(up_ref, reference("bandwidth", SCHEMA)))
    assert verdict.differing == ["schema_uri"]
    assert "identical (same digest)" in verdict.look_alike[0]


def test_a_wrong_embedded_digest_blocks_even_equal_references() -> None:
    up_ref = reference("value", SCHEMA)
    up_ref["resolution"]["schema"] = {**SCHEMA, "required": []}  # content no longer matches
    verdict = check_composition(*chain(up_ref, copy.deepcopy(up_ref)))
    assert verdict.differing == []
    assert not verdict.allowed  # RULES CMP1: each embedded schema verified first
    assert [f.pointer for f in verdict.digest_findings] == [
        "upstream/output_schema/digest",
        "downstream/input_schema/digest",
    ]
    assert "fails its digest" in verdict.summary()


def test_invalid_instance_is_located_in_its_text() -> None:
    text = '{\n  "link_id": "link-7",\n  "value": "fast",\n  "unit": "Mbit/s"\n}'
    verdict = check_composition(
        agent_document("measure_available_bandwidth"),
        agent_document("admit_traffic_demand"),
        instance=json.loads(text),
        instance_text=text,
    )
    assert verdict.allowed and not verdict.composable  # RULES CMP3
    assert verdict.instance_findings is not None
    finding = verdict.instance_findings[0]
    assert (finding.pointer, finding.keyword, finding.line, finding.rule) == (
        "/value",
        "type",
        3,
        "CMP3",
    )


def test_null_instance_is_checked_when_asked() -> None:
    verdict = check_composition(
        agent_document("measure_available_bandwidth"),
        agent_document("admit_traffic_demand"),
        instance=None,
        has_instance=True,
    )
    assert verdict.instance_findings and verdict.instance_findings[0].keyword == "type"


def test_task_ids_stay_distinct_and_a_reused_id_is_reported() -> None:
    up, down = (
        agent_document("measure_available_bandwidth"),
        agent_document("admit_traffic_demand"),
    )
    verdict = check_composition(up, down, upstream_task_id="t-1", downstream_task_id="t-2")
    assert verdict.to_json()["upstream"]["task_id"] == "t-1"  # RULES INV12
    assert verdict.to_json()["downstream"]["task_id"] == "t-2"
    reused = check_composition(up, down, upstream_task_id="t-1", downstream_task_id="t-1")
    assert any("INV12" in n for n in reused.notes)


@pytest.mark.parametrize(
    ("up", "down"),
    [
        (None, None),
        ([], "x"),
        ({"output_schema": 5}, {"input_schema": {"resolution": 1}}),
        (
            {"output_schema": {"schema_uri": 1, "resolution": {"schema": {"type": 7}}}},
            {"input_schema": {"schema_uri": 1, "resolution": {"schema": {"type": 7}}}},
        ),
    ],
)
def test_malformed_documents_are_refused_with_the_side_at_fault(up: Any, down: Any) -> None:
    """What `compose --json` prints for documents without a usable Schema Reference: not
    allowed, and a CMP1 finding for each side's missing or unverifiable schema."""
    verdict = check_composition(up, down, instance={"a": 1})
    assert not verdict.allowed
    report = json.loads(json.dumps(verdict.to_json()))
    assert report["summary"] == (
        "direct composition not allowed: schema_uri, version, dialect, digest differ"
    )
    findings = report["digest_findings"]
    assert [f["pointer"].removesuffix("/digest") for f in findings] == [
        "upstream/output_schema",
        "downstream/input_schema",
    ]
    assert {f["rule"] for f in findings} == {"CMP1"}
