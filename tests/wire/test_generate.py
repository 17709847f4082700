"""The shipped A2A wire schemas: what scripts/a2a_wire_schema.py generates, and held to
a2a-sdk's descriptors (1.0) and its 0.3 compatibility models where the SDK can say."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from a2a.compat.v0_3 import types as v03
from a2a.types import a2a_pb2
from google.protobuf.descriptor import Descriptor

from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.trust import card_fields
from sia_tui.core.wire.generate import STATES_0_3, schema_text
from sia_tui.core.wire.revisions import A2A_0_3, A2A_1_0, REVISIONS, wire_schema, wire_schema_text

SDK = a2a_pb2.DESCRIPTOR.message_types_by_name
#: Messages only sia-tui sends, described with the fields it sets (tests/grpc/test_messages.py).
_SENT_SUBSETS = ("SendMessageConfiguration",)


def _sdk_required(descriptor: Descriptor) -> set[str]:
    return {
        f.json_name
        for f in descriptor.fields
        if "REQUIRED" in str(f.GetOptions())  # google.api.field_behavior
    }


@pytest.mark.parametrize("revision", REVISIONS)
def test_the_shipped_schema_is_what_the_script_generates(revision: str) -> None:
    """Run ``uv run python scripts/a2a_wire_schema.py`` when this fails."""
    assert wire_schema_text(revision) == schema_text(revision)


@pytest.mark.parametrize("revision", REVISIONS)
def test_each_shipped_schema_is_valid_2020_12_and_names_its_revision(revision: str) -> None:
    schema = wire_schema(revision)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["x-a2a-revision"] == revision
    assert schema["$id"].endswith(revision)


def test_the_required_marks_of_the_descriptions_are_the_sdks() -> None:
    for name in pb.A2A_MESSAGES:
        sdk = {f.name for f in SDK[name].fields if "REQUIRED" in str(f.GetOptions())}
        assert pb.REQUIRED[name] == sdk, name


@pytest.mark.parametrize("name", sorted(set(pb.A2A_MESSAGES) | set(card_fields.MESSAGES)))
def test_each_1_0_message_has_the_sdks_members_and_required_ones(name: str) -> None:
    """One definition per message, with the SDK's ProtoJSON names; each member the SDK's
    descriptors mark REQUIRED is required, except a 0/false scalar (ProtoJSON omits it) and
    the paging members a last page legitimately leaves at their default."""
    definition = wire_schema(A2A_1_0)["$defs"][name]
    sdk = SDK[name]
    members = {f.json_name for f in sdk.fields}
    if name in _SENT_SUBSETS:  # what sia-tui sends: described as far as it sets them
        assert set(definition["properties"]) <= members
    else:
        assert set(definition["properties"]) == members
    omitted_at_default = {
        f.json_name
        for f in sdk.fields
        if f.type in (f.TYPE_BOOL, f.TYPE_INT32) and not f.is_repeated
    }
    if name == "ListTasksResponse":
        omitted_at_default |= {"tasks", "nextPageToken"}
    assert set(definition.get("required", [])) == _sdk_required(sdk) - omitted_at_default
    assert definition["additionalProperties"] is False


@pytest.mark.parametrize("name", sorted(set(pb.A2A_MESSAGES) | set(card_fields.MESSAGES)))
def test_each_member_is_titled_with_the_specifications_field_name(name: str) -> None:
    definition = wire_schema(A2A_1_0)["$defs"][name]
    titles = {m: s["title"] for m, s in definition["properties"].items()}
    sdk = {f.json_name: f"{name}.{f.name}" for f in SDK[name].fields}
    assert titles == {m: sdk[m] for m in titles}


def test_enums_are_spelt_as_the_sdk_spells_them() -> None:
    defs = wire_schema(A2A_1_0)["$defs"]
    states = [v.name for v in a2a_pb2.DESCRIPTOR.enum_types_by_name["TaskState"].values]
    roles = [v.name for v in a2a_pb2.DESCRIPTOR.enum_types_by_name["Role"].values]
    assert defs["TaskStatus"]["properties"]["state"]["enum"] == states
    assert defs["Message"]["properties"]["role"]["enum"] == roles


@pytest.mark.parametrize(
    ("name", "oneof"),
    [
        ("StreamResponse", ["task", "message", "statusUpdate", "artifactUpdate"]),
        ("SendMessageResponse", ["task", "message"]),
        ("Part", ["text", "raw", "url", "data"]),
    ],
)
def test_a_oneof_is_exactly_one_of_its_members(name: str, oneof: list[str]) -> None:
    definition = wire_schema(A2A_1_0)["$defs"][name]
    assert definition["oneOf"] == [{"required": [m]} for m in oneof]
    sdk_oneof = [o for o in SDK[name].oneofs if not o.name.startswith("_")][0]
    assert [f.json_name for f in sdk_oneof.fields] == oneof


_V03 = (
    "Task",
    "Message",
    "TaskStatus",
    "Artifact",
    "TaskStatusUpdateEvent",
    "TaskArtifactUpdateEvent",
    "TextPart",
    "DataPart",
    "FilePart",
    "AgentCard",
    "MessageSendParams",
    "TaskQueryParams",
    "TaskIdParams",
)


def _v03_fields(model: Any) -> tuple[set[str], set[str]]:
    fields = model.model_fields
    every = {f.alias or k for k, f in fields.items()}
    return every, {f.alias or k for k, f in fields.items() if f.is_required()}


@pytest.mark.parametrize("name", _V03)
def test_each_0_3_object_has_the_sdks_members_and_required_ones(name: str) -> None:
    """The SDK's 0.3 models give ``kind`` a default; on the wire 0.3 requires it."""
    definition = wire_schema(A2A_0_3)["$defs"][name]
    every, required = _v03_fields(getattr(v03, name))
    assert set(definition["properties"]) == every
    assert set(definition.get("required", [])) - {"kind"} == required


def test_0_3_states_are_the_sdks() -> None:
    assert list(STATES_0_3) == [state.value for state in v03.TaskState]
