"""The hand-written A2A 1.0 descriptors against a2a-sdk 1.3.0's generated ones, and what
protobuf does to the data a message carries."""

from __future__ import annotations

from typing import Any

import pytest
from a2a.types import a2a_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.jsonkit.canonical import canonical_bytes

#: What an agent sends: every field of these must be known, or it would vanish unseen.
READ = (
    "SendMessageResponse",
    "StreamResponse",
    "Task",
    "TaskStatus",
    "Message",
    "Part",
    "Artifact",
    "TaskStatusUpdateEvent",
    "TaskArtifactUpdateEvent",
    "TaskPushNotificationConfig",
    "ListTaskPushNotificationConfigsResponse",
)
#: What sia-tui sends: a subset of the fields, each as the specification numbers it.
SENT = (
    "SendMessageRequest",
    "SendMessageConfiguration",
    "GetTaskRequest",
    "CancelTaskRequest",
    "SubscribeToTaskRequest",
    "ListTasksRequest",
    "GetTaskPushNotificationConfigRequest",
    "DeleteTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigsRequest",
)


def _shape(field: FieldDescriptor) -> tuple[object, ...]:
    target = field.message_type or field.enum_type
    oneof = field.containing_oneof
    return (
        field.number,
        field.type,
        field.is_repeated,
        target.full_name if target else None,
        oneof.name if oneof and not oneof.name.startswith("_") else None,
    )


def _fields(descriptor: Descriptor | Any) -> dict[str, tuple[object, ...]]:
    return {f.name: _shape(f) for f in descriptor.fields}


@pytest.mark.parametrize("name", READ + SENT)
def test_each_field_is_numbered_and_typed_as_in_the_sdk(name: str) -> None:
    ours = _fields(pb.a2a(name).DESCRIPTOR)
    sdk = _fields(a2a_pb2.DESCRIPTOR.message_types_by_name[name])
    assert {n: sdk[n] for n in ours} == ours
    if name in READ:
        assert set(ours) == set(sdk)


def test_enums_have_the_sdk_values() -> None:
    for enum in ("Role", "TaskState"):
        ours = pb.POOL.FindEnumTypeByName(f"lf.a2a.v1.{enum}")
        sdk = a2a_pb2.DESCRIPTOR.enum_types_by_name[enum]
        assert [(v.name, v.number) for v in ours.values] == [(v.name, v.number) for v in sdk.values]


def test_a_message_from_the_sdk_reads_back_field_for_field() -> None:
    sdk = a2a_pb2.StreamResponse()
    sdk.status_update.task_id = "t-1"
    sdk.status_update.status.state = a2a_pb2.TASK_STATE_REJECTED
    part = sdk.status_update.status.message.parts.add()
    part.data.struct_value.update({"code": "input_invalid", "details": [{"n": 3}]})
    assert pb.decode("StreamResponse", sdk.SerializeToString()) == {
        "statusUpdate": {
            "taskId": "t-1",
            "status": {
                "state": "TASK_STATE_REJECTED",
                "message": {
                    "parts": [{"data": {"code": "input_invalid", "details": [{"n": 3.0}]}}]
                },
            },
        }
    }


def test_every_number_becomes_a_double_and_jcs_keeps_the_safe_ones() -> None:
    """80 arrives as 80.0 (the exchange shows it), which JCS still writes as 80; an integer
    beyond 2**53 - 1 arrives rounded: 18446744073709551615 becomes 2**64."""
    value = {"max": 80, "bound": 18446744073709551615}
    request = {"message": {"messageId": "m", "parts": [{"data": value}]}}
    carried = pb.decode("SendMessageRequest", pb.encode("SendMessageRequest", request))
    data = carried["message"]["parts"][0]["data"]
    assert data == {"max": 80.0, "bound": 2.0**64}
    assert isinstance(data["max"], float)
    assert canonical_bytes({"max": data["max"]}) == canonical_bytes({"max": 80}) == b'{"max":80}'
    assert b'"bound":18446744073709552000' in canonical_bytes(data)


def test_bytes_that_are_not_the_message_are_an_a2a_protocol_error() -> None:
    with pytest.raises(A2AProtocolError, match="not a valid lf.a2a.v1.Task"):
        pb.decode("Task", b"\x00\xff<html>")


def test_an_unknown_member_is_refused_before_sending() -> None:
    with pytest.raises(A2AProtocolError, match="cannot send as GetTaskRequest"):
        pb.encode("GetTaskRequest", {"id": "t", "bogus": 1})


def test_the_private_pool_leaves_the_sdk_classes_alone() -> None:
    """An a2a-sdk in the same process keeps its own lf.a2a.v1 classes (tests load both)."""
    assert pb.a2a("Task") is not a2a_pb2.Task
    assert pb.a2a("Task").DESCRIPTOR.full_name == a2a_pb2.Task.DESCRIPTOR.full_name
