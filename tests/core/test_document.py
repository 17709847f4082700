"""Skill Interface Document checks: SID1-SID9, SR1-SR7, CP4-CP6, ADV1, ADV3."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.findings import Severity
from sia_tui.core.interface.document import (
    check_advertisement,
    validate_document,
    verify_digests,
    verify_embedded_schemas,
)
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.schemas.sischema import load_skill_interface_schema
from tests.support.documents import INPUT_SCHEMA, document_errors, make_document, reference

Doc = dict[str, Any]
IDS = {"skill_id": "evaluate_resource_condition", "skill_version": "1.0"}


def _errors(document: Any) -> list[tuple[str, str | None]]:
    return [
        (f.pointer, f.rule)
        for f in validate_document(document, **IDS)
        if f.severity is Severity.ERROR
    ]


def test_valid_document_passes_every_step(document: Doc) -> None:
    digest = digest_of(document)
    assert verify_digests(document, digest, digest).ok
    assert validate_document(document, **IDS) == []
    checks = verify_embedded_schemas(document)
    assert all(c.ok and not c.findings for c in checks)
    assert [c.role for c in checks] == [
        "input_schema",
        "output_schema",
        "supporting_record_schemas/resource-observation",
    ]
    broken = document_errors({}, advertised=None, returned=None, **IDS)
    assert broken and all(f.code == "interface_invalid" for f in broken)


def test_sid7_trusted_schema_ships_in_the_package() -> None:
    schema = load_skill_interface_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    schema["required"] = []  # callers get a copy; the shipped schema cannot be altered
    assert len(load_skill_interface_schema()["required"]) == 9


@pytest.mark.parametrize(
    "member",
    [
        "interface_version",
        "skill_id",
        "skill_version",
        "input_schema",
        "output_schema",
        "supporting_record_schemas",
        "interaction",
        "constraints",
        "authority",
    ],
)
def test_sid1_each_of_the_nine_members_is_required(document: Doc, member: str) -> None:
    del document[member]
    assert ("", "SID1") in _errors(document)


def test_sid1_no_other_top_level_members(document: Doc) -> None:
    document["extra"] = 1
    assert ("", "SID1") in _errors(document)


@pytest.mark.parametrize(
    "version, ok",
    [
        ("1.0", True),
        ("2.13", True),
        ("0.0", True),
        ("01.0", False),
        ("1.00", False),
        ("1", False),
        ("1.0.0", False),
        ("v1.0", False),
        ("1.0\n", False),
    ],
)
def test_sid2_version_pattern(document: Doc, version: str, ok: bool) -> None:
    document["skill_version"] = version
    errors = validate_document(document, skill_id=IDS["skill_id"], skill_version=version)
    assert (not errors) is ok
    if not ok:
        assert errors[0].rule == "SID2" and errors[0].pointer == "/skill_version"


def test_sid3_interface_version_must_be_1_0(document: Doc) -> None:
    document["interface_version"] = "1.1"
    assert _errors(document) == [("/interface_version", "SID3")]


@pytest.mark.parametrize(
    "interaction",
    [
        {"response_modes": [], "cancellable": False},
        {"response_modes": ["sync", "sync"], "cancellable": False},
        {"response_modes": ["push"], "cancellable": False},
        {"response_modes": ["sync"], "cancellable": "no"},
        {"response_modes": ["sync"]},
    ],
)
def test_sid4_interaction(document: Doc, interaction: Doc) -> None:
    document["interaction"] = interaction
    assert any(rule == "SID4" for _, rule in _errors(document))


@pytest.mark.parametrize(
    "authority",
    [
        {"default_mode": "admin", "approval_may_be_required": False},
        {"default_mode": "execute", "approval_may_be_required": "yes"},
        {"default_mode": "execute"},
    ],
)
def test_sid5_authority(document: Doc, authority: Doc) -> None:
    document["authority"] = authority
    assert any(rule == "SID5" for _, rule in _errors(document))


def test_constraints_known_members_are_typed(document: Doc) -> None:
    document["constraints"] = {"max_input_bytes": -1, "max_duration_seconds": 0, "other": "x"}
    pointers = {p for p, _ in _errors(document)}
    assert pointers == {"/constraints/max_input_bytes", "/constraints/max_duration_seconds"}


def test_cp5_ids_must_match_the_selection(document: Doc) -> None:
    errors = validate_document(document, skill_id="other", skill_version="2.0")
    assert {(f.pointer, f.rule) for f in errors} == {
        ("/skill_id", "CP5"),
        ("/skill_version", "CP5"),
    }


def test_sid8_record_kind_never_equals_the_skill_id(document: Doc) -> None:
    document["supporting_record_schemas"]["evaluate_resource_condition"] = reference({})
    assert ("/supporting_record_schemas/evaluate_resource_condition", "SID8") in _errors(document)


def test_sid9_several_operations_is_an_advisory_warning(document: Doc) -> None:
    schema = {"type": "object", "properties": {"operation": {"enum": ["read", "delete"]}}}
    document["input_schema"] = reference(schema)
    findings = validate_document(document, **IDS)
    assert [(f.rule, f.severity) for f in findings] == [("SID9", Severity.WARNING)]
    assert (
        document_errors(
            document, advertised=digest_of(document), returned=digest_of(document), **IDS
        )
        == []
    )


def test_sr1_schema_reference_has_exactly_five_members(document: Doc) -> None:
    del document["input_schema"]["schema_uri"]
    document["output_schema"]["title"] = "extra"
    assert {("/input_schema", "SR1"), ("/output_schema", "SR1")} <= set(_errors(document))


def test_sr2_dialect_must_be_2020_12(document: Doc) -> None:
    document["input_schema"]["dialect"] = "http://json-schema.org/draft-07/schema#"
    assert ("/input_schema/dialect", "SR2") in _errors(document)


def test_sr2_embedded_schema_must_satisfy_the_metaschema(document: Doc) -> None:
    bad = {"type": "integer", "minimum": "zero"}
    document["output_schema"] = reference(bad)
    check = verify_embedded_schemas(document)[1]
    assert check.match and not check.ok
    assert [(f.pointer, f.rule) for f in check.findings] == [
        ("/output_schema/resolution/schema/minimum", "SR2")
    ]


@pytest.mark.parametrize(
    "resolution",
    [
        {"type": "remote", "schema": {}},
        {"type": "inline"},
        {"type": "inline", "schema": 3},
    ],
)
def test_sr3_resolution_is_inline(document: Doc, resolution: Doc) -> None:
    document["input_schema"]["resolution"] = resolution
    assert any(rule == "SR3" for _, rule in _errors(document))


def test_sr3_missing_inline_schema_fails_cp6(document: Doc) -> None:
    del document["input_schema"]["resolution"]["schema"]
    check = verify_embedded_schemas(document)[0]
    assert not check.ok and check.findings[0].rule == "SR3"


def test_cp6_sr4_embedded_digest_mismatch_is_explained(document: Doc) -> None:
    schema = document["input_schema"]["resolution"]["schema"]
    wrong = "sha256:" + hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest()
    document["input_schema"]["digest"] = wrong
    check = verify_embedded_schemas(document)[0]
    assert not check.match and check.computed == digest_of(INPUT_SCHEMA)
    assert check.forensics is not None and check.forensics.matched == "json_dumps_sorted"
    finding = check.findings[-1]
    assert (finding.pointer, finding.rule, finding.code) == (
        "/input_schema/digest",
        "CP6",
        "interface_invalid",
    )
    assert "you are not using RFC 8785" in finding.message


def test_sr4_malformed_embedded_digest_is_named(document: Doc) -> None:
    document["output_schema"]["digest"] = document["output_schema"]["digest"].upper()
    check = verify_embedded_schemas(document)[1]
    assert "lowercase" in check.findings[0].message and check.findings[0].rule == "SR4"


def test_sr7_remote_ref_in_an_embedded_schema_is_flagged(document: Doc) -> None:
    document["output_schema"] = reference({"$ref": "https://example.com/remote.json"})
    check = verify_embedded_schemas(document)[1]
    assert [(f.rule, f.pointer) for f in check.findings] == [
        ("SR7", "/output_schema/resolution/schema/$ref")
    ]
    assert check.match and not check.ok  # the digest is right, the interface is incomplete


def test_sr7_relative_remote_ref_is_caught_by_the_offline_compile(document: Doc) -> None:
    schema = {"$id": "https://example.net/s/root", "$ref": "other.json"}
    document["output_schema"] = reference(schema)
    check = verify_embedded_schemas(document)[1]
    assert [f.rule for f in check.findings] == ["SR7"] and not check.ok


def test_cp4_three_way_digests(document: Doc) -> None:
    digest = digest_of(document)
    assert verify_digests(document, digest, digest).ok
    other = "sha256:" + "0" * 64
    check = verify_digests(document, other, digest)
    assert [f.rule for f in check.findings] == ["CP4"] and "advertises" in check.findings[0].message
    stale = copy.deepcopy(document)
    stale["constraints"] = {"max_input_bytes": 10}
    check = verify_digests(document, digest_of(stale), digest_of(stale))
    assert check.computed == digest and not check.ok
    assert check.forensics is not None and check.forensics.matched is None


def test_cp4_malformed_digests_are_explained(document: Doc) -> None:
    check = verify_digests(document, "md5:abc", "42")
    messages = [f.message for f in check.findings]
    assert any("advertised digest is malformed: algorithm 'md5'" in m for m in messages)
    assert any("returned digest is malformed" in m for m in messages)


def _extension(**params: Any) -> Doc:
    skills = [
        {
            "skill_id": "evaluate_resource_condition",
            "skill_version": "1.0",
            "interface_digest": digest_of(make_document()),
        }
    ]
    return {
        "uri": EXTENSION_URI,
        "required": False,
        "params": {"interface_version": "1.0", "skills": skills, **params},
    }


def test_adv1_good_advertisement_has_no_findings() -> None:
    assert check_advertisement(_extension()) == []


def test_adv1_shape_problems_are_located() -> None:
    ext = _extension(interface_version="2.0")
    ext["uri"] = "https://example.com/other"
    ext["params"]["skills"][0]["interface_digest"] = "sha256:XYZ"
    findings = check_advertisement(ext)
    assert [(f.pointer, f.rule) for f in findings] == [
        ("/uri", "ADV1"),
        ("/params/interface_version", "ADV1"),
        ("/params/skills/0/interface_digest", "ADV1"),
    ]
    assert all(f.code == "interface_invalid" for f in findings)
    assert check_advertisement({"uri": EXTENSION_URI, "params": []})[0].pointer == "/params"


def test_adv3_one_binding_per_skill_id() -> None:
    ext = _extension()
    ext["params"]["skills"].append({**ext["params"]["skills"][0], "skill_version": "1.1"})
    findings = check_advertisement(ext)
    assert [(f.pointer, f.rule) for f in findings] == [("/params/skills/1/skill_id", "ADV3")]
