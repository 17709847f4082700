"""The A2A 1.0 gRPC messages sia-tui sends and reads, described by hand, and ProtoJSON.

Why by hand: the a2a-sdk's generated ``a2a_pb2`` would make the SDK (about 56 MB with
cryptography and google-api-core) a runtime dependency, and a module generated from a
fetched ``a2a.proto`` is fetched code. The client needs a dozen messages; their field
names, numbers and types are written once below, in a private descriptor pool (an
a2a-sdk loaded in the same process keeps its own ``lf.a2a.v1`` names), and a test holds
them to the SDK's generated descriptors field by field.

The wire never carries JSON; the client turns each message into ProtoJSON text (what the
JSON bindings carry) so that one reader serves all three bindings and the exchange view
shows what protobuf did to the data: every number in a ``google.protobuf.Value`` is a
double (``80`` arrives as ``80.0``).
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import (
    any_pb2,
    descriptor_pb2,
    descriptor_pool,
    json_format,
    message_factory,
    struct_pb2,
    timestamp_pb2,
)
from google.protobuf.message import DecodeError, Message

from sia_tui.core import limits
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.task_state import TaskState

PACKAGE = "lf.a2a.v1"
#: Message levels a protobuf decoder accepts: the default recursion limit of the C++, Java
#: and Python (upb) runtimes, so of sia-tui and of an a2a-sdk agent's gRPC server alike. A
#: level of JSON data in a ``google.protobuf.Value`` costs three (Value, Struct, map entry),
#: so the data of a Part gets about 30 levels (it depends on the envelope) where the JSON
#: bindings give ``--max-depth`` (256). It cannot be raised to agree: upb has no per-call
#: setting (its one switch, ``SetAllowOversizeProtos``, is process-wide), and an agent's
#: own runtime would refuse the deeper messages sia-tui sent anyway.
PROTOBUF_DEPTH = 100
SERVICE = f"{PACKAGE}.A2AService"

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    "string": _F.TYPE_STRING,
    "bytes": _F.TYPE_BYTES,
    "bool": _F.TYPE_BOOL,
    "int32": _F.TYPE_INT32,
}
_WELL_KNOWN = {
    "Struct": ".google.protobuf.Struct",
    "Value": ".google.protobuf.Value",
    "Timestamp": ".google.protobuf.Timestamp",
    "Any": ".google.protobuf.Any",
}
_ENUMS = {
    "Role": ("ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"),
    # The one spelling of the task states: TaskState is declared in a2a.proto's order.
    "TaskState": tuple(state.value for state in TaskState),
}

#: message -> fields as "name number type", type ``*T`` repeated, ``T|oneof`` in a oneof,
#: ``T?`` a proto3 ``optional`` field (its presence is kept: an explicit 0 is not "unset"),
#: ``T!`` REQUIRED in a2a.proto (``google.api.field_behavior``; the wire schema reads it).
#: Every field of what an agent sends is here (nothing it says is dropped unseen); the
#: requests carry only what sia-tui sets.
_A2A: dict[str, tuple[str, ...]] = {
    "SendMessageRequest": (
        "tenant 1 string",
        "message 2 Message!",
        "configuration 3 SendMessageConfiguration",
        "metadata 4 Struct",
    ),
    "SendMessageConfiguration": (
        "accepted_output_modes 1 *string",
        "task_push_notification_config 2 TaskPushNotificationConfig",
        "return_immediately 4 bool",
    ),
    "TaskPushNotificationConfig": (
        "tenant 1 string",
        "id 2 string",
        "task_id 3 string",
        "url 4 string!",
        "token 5 string",
        "authentication 6 AuthenticationInfo",
    ),
    "AuthenticationInfo": ("scheme 1 string!", "credentials 2 string"),
    "ListTasksRequest": (
        "tenant 1 string",
        "context_id 2 string",
        "status 3 TaskState",
        "page_size 4 int32?",
        "page_token 5 string",
        "history_length 6 int32?",
        "status_timestamp_after 7 Timestamp",
        "include_artifacts 8 bool?",
    ),
    "ListTasksResponse": (
        "tasks 1 *Task!",
        "next_page_token 2 string!",
        "page_size 3 int32!",
        "total_size 4 int32!",
    ),
    "GetTaskRequest": ("tenant 1 string", "id 2 string!", "history_length 3 int32?"),
    "GetTaskPushNotificationConfigRequest": (
        "tenant 1 string",
        "task_id 2 string!",
        "id 3 string!",
    ),
    "DeleteTaskPushNotificationConfigRequest": (
        "tenant 1 string",
        "task_id 2 string!",
        "id 3 string!",
    ),
    "ListTaskPushNotificationConfigsRequest": (
        "tenant 4 string",
        "task_id 1 string!",
        "page_size 2 int32",
        "page_token 3 string",
    ),
    "ListTaskPushNotificationConfigsResponse": (
        "configs 1 *TaskPushNotificationConfig",
        "next_page_token 2 string",
    ),
    "CancelTaskRequest": ("tenant 1 string", "id 2 string!", "metadata 3 Struct"),
    "SubscribeToTaskRequest": ("tenant 1 string", "id 2 string!"),
    "Message": (
        "message_id 1 string!",
        "context_id 2 string",
        "task_id 3 string",
        "role 4 Role!",
        "parts 5 *Part!",
        "metadata 6 Struct",
        "extensions 7 *string",
        "reference_task_ids 8 *string",
    ),
    "Part": (
        "text 1 string|content",
        "raw 2 bytes|content",
        "url 3 string|content",
        "data 4 Value|content",
        "metadata 5 Struct",
        "filename 6 string",
        "media_type 7 string",
    ),
    "Artifact": (
        "artifact_id 1 string!",
        "name 2 string",
        "description 3 string",
        "parts 4 *Part!",
        "metadata 5 Struct",
        "extensions 6 *string",
    ),
    "TaskStatus": ("state 1 TaskState!", "message 2 Message", "timestamp 3 Timestamp"),
    "Task": (
        "id 1 string!",
        "context_id 2 string",
        "status 3 TaskStatus!",
        "artifacts 4 *Artifact",
        "history 5 *Message",
        "metadata 6 Struct",
    ),
    "SendMessageResponse": ("task 1 Task|payload", "message 2 Message|payload"),
    "StreamResponse": (
        "task 1 Task|payload",
        "message 2 Message|payload",
        "status_update 3 TaskStatusUpdateEvent|payload",
        "artifact_update 4 TaskArtifactUpdateEvent|payload",
    ),
    "TaskStatusUpdateEvent": (
        "task_id 1 string!",
        "context_id 2 string!",
        "status 3 TaskStatus!",
        "metadata 4 Struct",
    ),
    "TaskArtifactUpdateEvent": (
        "task_id 1 string!",
        "context_id 2 string!",
        "artifact 3 Artifact!",
        "append 4 bool",
        "last_chunk 5 bool",
        "metadata 6 Struct",
    ),
}

#: The A2A messages described here, by short name (the wire schema's generator reads them).
A2A_MESSAGES = tuple(_A2A)
#: Message -> the names of its fields marked REQUIRED (``!``) in a2a.proto.
REQUIRED = {
    name: frozenset(spec.split()[0] for spec in specs if spec.endswith("!"))
    for name, specs in _A2A.items()
}

#: google.rpc's error model (google/rpc/status.proto, error_details.proto): the status an
#: A2A gRPC error carries in its ``grpc-status-details-bin`` trailer.
_RPC: dict[str, tuple[str, ...]] = {
    "Status": ("code 1 int32", "message 2 string", "details 3 *Any"),
    "ErrorInfo": ("reason 1 string", "domain 2 string", "metadata 3 *ErrorInfo.MetadataEntry"),
    "BadRequest": ("field_violations 1 *BadRequest.FieldViolation",),
}
_RPC_NESTED = {
    "ErrorInfo": ("MetadataEntry", ("key 1 string", "value 2 string"), True),
    "BadRequest": ("FieldViolation", ("field 1 string", "description 2 string"), False),
}


def _field(spec: str, package: str, oneofs: dict[str, int]) -> _F:
    name, number, kind = spec.split()
    kind = kind.removesuffix("!")
    kind, _, oneof = kind.partition("|")
    optional = kind.endswith("?")
    kind = kind.removesuffix("?")
    repeated = kind.startswith("*")
    kind = kind.lstrip("*")
    field = _F(name=name, number=int(number))
    field.label = _F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL
    if kind in _SCALARS:
        field.type = _SCALARS[kind]
    elif kind in _ENUMS:
        field.type, field.type_name = _F.TYPE_ENUM, f".{package}.{kind}"
    else:
        field.type = _F.TYPE_MESSAGE
        field.type_name = _WELL_KNOWN.get(kind, f".{package}.{kind}")
    if oneof:
        field.oneof_index = oneofs.setdefault(oneof, len(oneofs))
    if optional:  # a synthetic oneof, as protoc writes it (these messages have no real one)
        field.proto3_optional = True
        field.oneof_index = oneofs.setdefault(f"_{name}", len(oneofs))
    return field


def _message(name: str, specs: tuple[str, ...], package: str) -> descriptor_pb2.DescriptorProto:
    oneofs: dict[str, int] = {}
    message = descriptor_pb2.DescriptorProto(name=name)
    message.field.extend(_field(spec, package, oneofs) for spec in specs)
    message.oneof_decl.extend(
        descriptor_pb2.OneofDescriptorProto(name=n) for n in sorted(oneofs, key=oneofs.__getitem__)
    )
    return message


def _file(name: str, package: str, deps: list[str]) -> descriptor_pb2.FileDescriptorProto:
    return descriptor_pb2.FileDescriptorProto(
        name=name, package=package, syntax="proto3", dependency=deps
    )


def _build_pool() -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    for module in (struct_pb2, timestamp_pb2, any_pb2):
        pool.Add(descriptor_pb2.FileDescriptorProto.FromString(module.DESCRIPTOR.serialized_pb))
    a2a = _file(
        "sia_tui/a2a_v1.proto",
        PACKAGE,
        ["google/protobuf/struct.proto", "google/protobuf/timestamp.proto"],
    )
    for enum, values in _ENUMS.items():
        a2a.enum_type.add(name=enum).value.extend(
            descriptor_pb2.EnumValueDescriptorProto(name=v, number=i) for i, v in enumerate(values)
        )
    a2a.message_type.extend(_message(n, s, PACKAGE) for n, s in _A2A.items())
    pool.Add(a2a)
    rpc = _file("sia_tui/google_rpc.proto", "google.rpc", ["google/protobuf/any.proto"])
    for name, specs in _RPC.items():
        message = _message(name, specs, "google.rpc")
        if name in _RPC_NESTED:
            nested_name, nested_specs, is_map = _RPC_NESTED[name]
            nested = _message(nested_name, nested_specs, "google.rpc")
            nested.options.map_entry = is_map
            message.nested_type.append(nested)
        rpc.message_type.append(message)
    pool.Add(rpc)
    return pool


POOL = _build_pool()


def message_class(full_name: str) -> type[Message]:
    """The class of ``lf.a2a.v1.Task``, ``google.rpc.Status``..., from the private pool."""
    return message_factory.GetMessageClass(POOL.FindMessageTypeByName(full_name))


def a2a(name: str) -> type[Message]:
    """The class of an ``lf.a2a.v1`` message by its short name."""
    return message_class(f"{PACKAGE}.{name}")


#: The answer of each method sia-tui calls.
RESPONSES = {
    "SendMessage": "SendMessageResponse",
    "SendStreamingMessage": "StreamResponse",
    "GetTask": "Task",
    "CancelTask": "Task",
    "SubscribeToTask": "StreamResponse",
    "ListTasks": "ListTasksResponse",
    "CreateTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "GetTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "ListTaskPushNotificationConfigs": "ListTaskPushNotificationConfigsResponse",
}


def encode(name: str, value: dict[str, Any]) -> bytes:
    """ProtoJSON ``value`` as the binary ``lf.a2a.v1.<name>`` (unknown members refused)."""
    return encode_message(f"{PACKAGE}.{name}", value)


def encode_message(full_name: str, value: dict[str, Any]) -> bytes:
    """ProtoJSON ``value`` as the binary message ``full_name`` of the private pool."""
    message = message_class(full_name)()
    short = full_name.rpartition(".")[2]
    try:
        json_format.ParseDict(value, message)
    except json_format.ParseError as exc:
        why = binding_depth() if "too deep" in str(exc) else str(exc)
        raise A2AProtocolError(f"cannot send as {short}: {why}") from None
    data = bytes(message.SerializeToString())
    try:  # what the agent's decoder would refuse is said here, with the limit's name
        message_class(full_name)().ParseFromString(data)
    except DecodeError as exc:
        why = binding_depth() if _too_deep(exc) else str(exc)
        raise A2AProtocolError(f"cannot send as {short}: {why}") from None
    return data


def binding_depth() -> str:
    """Why a message nested too deep is refused, naming whose limit it is."""
    return (
        f"nested deeper than protobuf decoders accept ({PROTOBUF_DEPTH} message levels: "
        "about 30 levels of JSON data in a Part, 3 message levels each). This is the gRPC "
        "binding's limit "
        "(protobuf's default, in sia-tui and in the agent's gRPC runtime alike), not "
        f"sia-tui's JSON depth limit ({limits.MAX_JSON_DEPTH}), which the JSON-RPC and "
        "HTTP+JSON bindings apply: the same data can pass over those"
    )


def _too_deep(exc: DecodeError) -> bool:
    text = str(exc)
    return "MaxDepth" in text or "nesting" in text  # upb, and the pure-Python decoder


def decode(name: str, data: bytes) -> dict[str, Any]:
    """Binary ``lf.a2a.v1.<name>`` from the wire as a ProtoJSON object."""
    message = a2a(name)()
    try:
        message.ParseFromString(data)
    except DecodeError as exc:
        why = binding_depth() if _too_deep(exc) else str(exc)
        raise A2AProtocolError(f"the answer is not a valid {PACKAGE}.{name}: {why}") from None
    return as_json(message, name)


def as_json(message: Message, name: str) -> dict[str, Any]:
    """A parsed message as ProtoJSON (camelCase names, enum names, defaults left out)."""
    try:
        return json_format.MessageToDict(message)
    except (ValueError, json_format.SerializeToJsonError) as exc:
        # NaN or Infinity in a google.protobuf.Value has no JSON form.
        raise A2AProtocolError(f"the {name} cannot be written as JSON: {exc}") from None


def json_bytes(value: Any) -> bytes:
    """Compact UTF-8 ProtoJSON text, as the exchange records it. Members are sorted: a
    protobuf map (a Struct's members) has no order, and protobuf prints one that changes
    with every process; sorted, a session reads and diffs the same every time."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
