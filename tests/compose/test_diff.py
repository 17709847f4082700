"""Structural document diff: each change class and the SID2 version rule."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from sia_tui.core.interface.document_diff import check_version_rule, diff_documents
from sia_tui.core.schemas.schema_diff import Impact
from tests.support.compose_docs import (
    reseal,
    reservation_v1,
    reservation_v1_1_breaking,
    reservation_v1_1_compatible,
    reservation_v2_0_breaking,
)

Edit = Callable[[dict[str, Any]], object]  # edits in place; a lambda may return anything


def _inp(doc: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = doc["input_schema"]["resolution"]["schema"]
    return schema


def _out(doc: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = doc["output_schema"]["resolution"]["schema"]
    return schema


def _record(doc: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = doc["supporting_record_schemas"]["ledger-entry"]["resolution"][
        "schema"
    ]
    return schema


# (id, edit, where, aspect, impact): one row per diff class of docs/COMPOSE.md.
CASES: list[tuple[str, Edit, str, str, Impact]] = [
    (
        "input new required member",
        lambda d: (
            _inp(d)["properties"].update(tenant={"type": "string"}),
            _inp(d)["required"].append("tenant"),
        ),
        "input tenant",
        "member",
        Impact.BREAKING,
    ),
    (
        "input new optional member",
        lambda d: _inp(d)["properties"].update(note={"type": "string"}),
        "input note",
        "member",
        Impact.COMPATIBLE,
    ),
    (
        "input member removed",
        lambda d: _inp(d)["properties"].pop("start"),
        "input start",
        "member",
        Impact.BREAKING,
    ),
    (
        "input member becomes required",
        lambda d: _inp(d)["required"].append("priority"),
        "input priority",
        "required",
        Impact.BREAKING,
    ),
    (
        "input member no longer required",
        lambda d: _inp(d)["required"].remove("mbps"),
        "input mbps",
        "required",
        Impact.COMPATIBLE,
    ),
    (
        "input enum value removed",
        lambda d: _inp(d)["properties"]["priority"]["enum"].remove("high"),
        "input priority",
        "enum",
        Impact.BREAKING,
    ),
    (
        "input enum value added",
        lambda d: _inp(d)["properties"]["priority"]["enum"].append("urgent"),
        "input priority",
        "enum",
        Impact.COMPATIBLE,
    ),
    (
        "input type narrowed number to integer",
        lambda d: _inp(d)["properties"]["mbps"].update(type="integer"),
        "input mbps",
        "type",
        Impact.BREAKING,
    ),
    (
        "input type widened",
        lambda d: _inp(d)["properties"]["link_id"].update(type=["string", "integer"]),
        "input link_id",
        "type",
        Impact.COMPATIBLE,
    ),
    (
        "input maximum lowered",
        lambda d: _inp(d)["properties"]["mbps"].update(maximum=1000),
        "input mbps",
        "maximum",
        Impact.BREAKING,
    ),
    (
        "input maxLength raised",
        lambda d: _inp(d)["properties"]["link_id"].update(maxLength=400),
        "input link_id",
        "maxLength",
        Impact.COMPATIBLE,
    ),
    (
        "input minLength raised",
        lambda d: _inp(d)["properties"]["link_id"].update(minLength=3),
        "input link_id",
        "minLength",
        Impact.BREAKING,
    ),
    (
        "input additionalProperties opened",
        lambda d: _inp(d).pop("additionalProperties"),
        "input",
        "additionalProperties",
        Impact.COMPATIBLE,
    ),
    (
        "input format removed",
        lambda d: _inp(d)["properties"]["start"].pop("format"),
        "input start",
        "format",
        Impact.COMPATIBLE,
    ),
    (
        "input const added",
        lambda d: _inp(d)["properties"]["link_id"].update(const="l-1"),
        "input link_id",
        "const",
        Impact.BREAKING,
    ),
    (
        "input bound behind a local $ref raised",
        lambda d: _inp(d)["$defs"]["window"]["properties"]["minutes"].update(minimum=5),
        "input window.minutes",
        "minimum",
        Impact.BREAKING,
    ),
    (
        "output enum value added",
        lambda d: _out(d)["properties"]["status"]["enum"].append("queued"),
        "output status",
        "enum",
        Impact.BREAKING,
    ),
    (
        "output enum value removed",
        lambda d: _out(d)["properties"]["status"]["enum"].remove("denied"),
        "output status",
        "enum",
        Impact.COMPATIBLE,
    ),
    (
        "output new optional member",
        lambda d: _out(d)["properties"].update(expires={"type": "string"}),
        "output expires",
        "member",
        Impact.COMPATIBLE,
    ),
    (
        "output new required member",
        lambda d: (
            _out(d)["properties"].update(region={"type": "string"}),
            _out(d)["required"].append("region"),
        ),
        "output region",
        "member",
        Impact.COMPATIBLE,
    ),
    (
        "output member removed",
        lambda d: _out(d)["properties"].pop("granted_mbps"),
        "output granted_mbps",
        "member",
        Impact.BREAKING,
    ),
    (
        "output member no longer required",
        lambda d: _out(d)["required"].remove("status"),
        "output status",
        "required",
        Impact.BREAKING,
    ),
    (
        "output pattern changed",
        lambda d: _out(d)["properties"]["reservation_id"].update(pattern="^r[0-9]+$"),
        "output reservation_id",
        "pattern",
        Impact.BREAKING,
    ),
    (
        "output items minItems dropped",
        lambda d: _out(d)["properties"]["supporting_record_refs"].pop("minItems"),
        "output supporting_record_refs",
        "minItems",
        Impact.BREAKING,
    ),
    (
        "output additionalProperties opened",
        lambda d: _out(d).pop("additionalProperties"),
        "output",
        "additionalProperties",
        Impact.BREAKING,
    ),
    (
        "output title changed only",
        lambda d: _out(d).update(title="Result"),
        "output",
        "annotation",
        Impact.COMPATIBLE,
    ),
    (
        "record type widened",
        lambda d: _record(d)["properties"]["mbps"].update(type=["number", "null"]),
        "record ledger-entry mbps",
        "type",
        Impact.BREAKING,
    ),
    (
        "record kind removed",
        lambda d: d["supporting_record_schemas"].clear(),
        "record ledger-entry",
        "record kind",
        Impact.BREAKING,
    ),
    (
        "record kind added",
        lambda d: d["supporting_record_schemas"].update(
            audit=copy.deepcopy(d["supporting_record_schemas"]["ledger-entry"])
        ),
        "record audit",
        "record kind",
        Impact.COMPATIBLE,
    ),
    (
        "response mode removed",
        lambda d: d["interaction"]["response_modes"].remove("stream"),
        "interaction",
        "response_modes",
        Impact.BREAKING,
    ),
    (
        "response mode added",
        lambda d: d["interaction"]["response_modes"].append("poll"),
        "interaction",
        "response_modes",
        Impact.COMPATIBLE,
    ),
    (
        "no longer cancellable",
        lambda d: d["interaction"].update(cancellable=False),
        "interaction",
        "cancellable",
        Impact.BREAKING,
    ),
    (
        "constraint lowered",
        lambda d: d["constraints"].update(max_input_bytes=1024),
        "constraints",
        "max_input_bytes",
        Impact.BREAKING,
    ),
    (
        "constraint added",
        lambda d: d["constraints"].update(max_duration_seconds=5),
        "constraints",
        "max_duration_seconds",
        Impact.BREAKING,
    ),
    (
        "constraint lifted",
        lambda d: d["constraints"].clear(),
        "constraints",
        "max_input_bytes",
        Impact.COMPATIBLE,
    ),
    (
        "authority mode changed",
        lambda d: d["authority"].update(default_mode="execute"),
        "authority",
        "default_mode",
        Impact.BREAKING,
    ),
    (
        "approval now possible",
        lambda d: d["authority"].update(approval_may_be_required=True),
        "authority",
        "approval_may_be_required",
        Impact.BREAKING,
    ),
    (
        "schema_uri changed",
        lambda d: d["output_schema"].update(schema_uri="https://example.net/schemas/other"),
        "output",
        "schema_uri",
        Impact.BREAKING,
    ),
]


@pytest.mark.parametrize(
    ("edit", "where", "aspect", "impact"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_change_class_is_found_and_classified(
    edit: Edit, where: str, aspect: str, impact: Impact
) -> None:
    new = reservation_v1()
    edit(new)
    reseal(new)
    diff = diff_documents(reservation_v1(), new)
    found = [(c.where, c.aspect, c.impact) for c in diff.changes if c.impact is not Impact.INFO]
    assert found == [(where, aspect, impact)]
    # RULES FMT2: every change is located by a JSON Pointer that exists in one of the documents
    assert all(c.pointer.startswith("/") for c in diff.changes)


def test_identical_documents_have_no_change_and_keep_the_version() -> None:
    diff = diff_documents(reservation_v1(), reservation_v1())
    assert diff.changes == []
    assert diff.ok
    assert diff.version.change_class == "none"


def test_compatible_release_with_minor_bump_follows_sid2() -> None:
    diff = diff_documents(reservation_v1(), reservation_v1_1_compatible())
    assert not diff.breaking
    assert diff.version.follows, diff.version.message  # RULES SID2


def test_breaking_release_with_major_bump_follows_sid2() -> None:
    diff = diff_documents(reservation_v1(), reservation_v2_0_breaking())
    assert {c.where for c in diff.breaking} == {"input tenant_id", "output status"}
    assert diff.version.follows
    assert not diff.ok  # breaking changes still fail the diff for a client


def test_breaking_change_with_minor_bump_violates_sid2() -> None:
    diff = diff_documents(reservation_v1(), reservation_v1_1_breaking())
    assert not diff.version.follows
    assert diff.version.message == (
        "version rule violated: breaking change but minor bump (expected 2.0)"
    )


@pytest.mark.parametrize(
    ("old", "new", "change", "follows", "fragment"),
    [
        ("1.3", "2.0", "breaking", True, "followed"),
        ("1.3", "2.3", "breaking", False, "expected 2.0"),
        ("1.3", "1.3", "breaking", False, "version is unchanged"),
        ("1.3", "1.4", "compatible", True, "followed"),
        ("1.3", "2.0", "compatible", False, "compatible change but major bump"),
        ("1.3", "1.4", "none", False, "no interface change but the version changed"),
        ("2.0", "1.9", "compatible", False, "went backwards"),
        ("1.0", "01.1", "compatible", False, "not MAJOR.MINOR"),
    ],
)
def test_version_rule_table(old: str, new: str, change: str, follows: bool, fragment: str) -> None:
    verdict = check_version_rule(old, new, change)  # RULES SID2
    assert verdict.follows is follows
    assert fragment in verdict.message


def test_hostile_documents_get_a_diff_that_says_what_it_could_not_compare() -> None:
    """What `diff --json` prints for values that are no document, a Schema Reference that is
    a number, and 500 levels of nesting against a $ref loop: a report, never a traceback."""
    no_version = "version rule violated: None is not MAJOR.MINOR (SID2)"
    not_documents: list[tuple[Any, Any]] = [(None, {}), ([], "x")]
    for a, b in not_documents:  # nothing to list, and the version rule says why
        report = diff_documents(a, b).to_json()
        assert (report["changes"], report["breaking"]) == ([], 0)
        assert report["version"]["message"] == no_version
    report = diff_documents(reservation_v1(), {"input_schema": 3}).to_json()
    by_pointer = {c["pointer"]: c for c in report["changes"]}
    assert by_pointer["/input_schema"]["impact"] == "breaking"
    assert by_pointer["/input_schema"]["reason"] == (
        "the Schema Reference is missing or malformed on one side"
    )
    assert report["notes"][0].startswith("the documents describe different skills")
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(500):
        node["items"] = {}
        node = node["items"]
    looping = {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}
    report = diff_documents(
        {"input_schema": {"resolution": {"schema": deep}}},
        {"input_schema": {"resolution": {"schema": looping}}},
    ).to_json()
    [breaking] = [c for c in report["changes"] if c["impact"] == "breaking"]
    assert breaking["pointer"] == "/input_schema/resolution/schema/$defs/a/$ref"
    assert breaking["reason"] == (
        "a reference this tool cannot follow changed (never fetched, RULES SR7)"
    )


def test_remote_ref_change_is_breaking_and_never_fetched() -> None:
    old = {"properties": {"x": {"$ref": "https://example.net/a.json"}}}
    new = {"properties": {"x": {"$ref": "https://example.net/b.json"}}}
    a, b = reservation_v1(), reservation_v1()
    a["input_schema"]["resolution"]["schema"] = old
    b["input_schema"]["resolution"]["schema"] = new
    diff = diff_documents(reseal(a), reseal(b))  # RULES SR7: compared as text, not fetched
    assert [(c.where, c.aspect, c.impact) for c in diff.breaking] == [
        ("input x", "$ref", Impact.BREAKING)
    ]
