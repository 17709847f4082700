"""The JSON Schemas (2020-12) of the A2A wire, generated from the descriptions sia-tui keeps.

A2A 1.0: every message of ``core/a2a/grpc/messages.py`` (the gRPC binding's messages, held
to a2a-sdk's descriptors by ``tests/grpc/test_messages.py``) and the card's messages of
``core/trust/card_fields.py`` (held to the same descriptors by ``tests/trust``), written as
ProtoJSON: camelCase member names, enum values by name, ``bytes`` in base64, a Timestamp as
RFC 3339 text, a Struct as an object, a Value as any JSON. A oneof (``payload`` of a stream
event, ``content`` of a Part) is "exactly one of its members". A REQUIRED field is a
required member, except where ProtoJSON omits a value the message may legitimately hold at
its default (``0``, ``false``; the paging members of ListTasksResponse): a peer omitting
those is right. Every object says ``additionalProperties: false``: ProtoJSON readers skip
unknown members, a strict peer may refuse them, so the checker reports them as warnings.

A2A 0.3 (``0.3`` below): the JSON objects of the 0.3 JSON schema that tolerated agents send
(``kind``-discriminated Task, Message, Parts and stream events, lowercase states, the 0.3
card), written here because sia-tui keeps no other description of them; held to a2a-sdk's
``a2a.compat.v0_3.types`` by ``tests/wire/test_generate.py``.

Only ``scripts/a2a_wire_schema.py`` and the tests import this module; the checker reads the
generated files (package data), so no run loads protobuf for them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.constants import DIALECT_2020_12
from sia_tui.core.trust import card_fields
from sia_tui.core.wire.revisions import A2A_0_3, A2A_1_0, REVISIONS, schema_file, schema_id

_D = FieldDescriptor
_SCALAR_TYPES = {
    _D.TYPE_STRING: {"type": "string"},
    _D.TYPE_BYTES: {"type": "string", "contentEncoding": "base64"},
    _D.TYPE_BOOL: {"type": "boolean"},
    _D.TYPE_INT32: {"type": "integer"},
}
_WELL_KNOWN: dict[str, Any] = {
    "google.protobuf.Struct": {"type": "object"},
    "google.protobuf.Value": True,
    "google.protobuf.Timestamp": {"type": "string", "format": "date-time"},
}
#: REQUIRED fields a message may hold at their default, which ProtoJSON then omits: the
#: last page has no next token, a list may be empty, a count may be 0.
_DEFAULT_IS_A_VALUE = {"ListTasksResponse": frozenset(("tasks", "next_page_token"))}


def _snake(json_name: str) -> str:
    """The proto field name of a JSON name: ``protocolBinding`` -> ``protocol_binding``."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", json_name).lower()


def _proto_field(field: FieldDescriptor) -> Any:
    if field.enum_type is not None:  # inline, so an error's schema path names the field
        value: Any = {"type": "string", "enum": [v.name for v in field.enum_type.values]}
    elif field.message_type is not None:
        full = field.message_type.full_name
        value = _WELL_KNOWN.get(full, {"$ref": f"#/$defs/{field.message_type.name}"})
    else:
        value = dict(_SCALAR_TYPES[field.type])
    return {"type": "array", "items": value} if field.is_repeated else value


def _titled(value: Any, title: str) -> dict[str, Any]:
    """``value`` with the spec's name of the field as its title (the checker names it)."""
    return {"title": title, **value} if isinstance(value, dict) else {"title": title}


def _proto_message(name: str, descriptor: Any) -> dict[str, Any]:
    required_names = pb.REQUIRED[name] - _DEFAULT_IS_A_VALUE.get(name, frozenset())
    properties: dict[str, Any] = {}
    required: list[str] = []
    oneofs: dict[str, list[str]] = {}
    for field in descriptor.fields:
        properties[field.json_name] = _titled(_proto_field(field), f"{name}.{field.name}")
        scalar_default = field.type in (_D.TYPE_BOOL, _D.TYPE_INT32) and not field.is_repeated
        if field.name in required_names and not scalar_default:
            required.append(field.json_name)
        oneof = field.containing_oneof
        if oneof is not None and not oneof.name.startswith("_"):
            oneofs.setdefault(oneof.name, []).append(field.json_name)
    schema = _closed(name, properties, required)
    groups = [{"oneOf": [{"required": [m]} for m in members]} for members in oneofs.values()]
    if len(groups) == 1:
        schema.update(groups[0])
    elif groups:
        schema["allOf"] = groups
    return schema


def _card_value(field: card_fields.Field) -> Any:
    scalar: Any = {"type": field.kind}
    target = {"$ref": f"#/$defs/{field.of}"} if field.of else scalar
    shape = field.shape
    if shape is card_fields.LIST:
        return {"type": "array", "items": target}
    if shape is card_fields.MAP:
        return {"type": "object", "additionalProperties": target}
    if shape is card_fields.STRUCT:
        return {"type": "object"}
    return target


def _card_message(name: str, fields: dict[str, card_fields.Field]) -> dict[str, Any]:
    properties = {
        json_name: _titled(_card_value(field), f"{name}.{_snake(json_name)}")
        for json_name, field in fields.items()
    }
    required = [
        json_name
        for json_name, field in fields.items()
        if field.required and not (field.shape is card_fields.SCALAR and field.kind == "boolean")
    ]
    return _closed(name, properties, required)


def _closed(name: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """An object of exactly these members (others are reported, as warnings)."""
    schema: dict[str, Any] = {
        "title": name,
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


def _object(name: str, members: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """``_closed`` with each member titled ``name.member``."""
    properties = {key: _titled(value, f"{name}.{key}") for key, value in members.items()}
    return _closed(name, properties, required)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _array(items: Any) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _jsonrpc_defs(result_of: dict[str, str | None], params_of: dict[str, str]) -> dict[str, Any]:
    """The JSON-RPC 2.0 envelopes: a request per method, a success response per method."""
    identifier = {"type": ["string", "integer", "null"]}
    version = {"const": "2.0"}
    error = {"code": {"type": "integer"}, "message": {"type": "string"}, "data": {}}
    defs: dict[str, Any] = {
        "JSONRPCError": _object("JSONRPCError", error, ["code", "message"]),
        "JSONRPCErrorResponse": _object(
            "JSONRPCErrorResponse",
            {"jsonrpc": version, "id": identifier, "error": _ref("JSONRPCError")},
            ["jsonrpc", "id", "error"],
        ),
    }
    for method, params in params_of.items():
        name = f"JSONRPCRequest.{method}"
        members = {"jsonrpc": version, "id": identifier, "method": {"const": method}}
        members["params"] = _ref(params)
        defs[name] = _object(name, members, ["jsonrpc", "method", "params"])
    for method, result in result_of.items():
        name = f"JSONRPCResponse.{method}"
        members = {"jsonrpc": version, "id": identifier, "result": _ref(result) if result else {}}
        defs[name] = _object(name, members, ["jsonrpc", "id", "result"])
    return defs


def _http_error() -> dict[str, Any]:
    """HTTP+JSON's error body (A2A 1.0 section 11.6: a ``google.rpc.Status`` as JSON)."""
    status = {
        "code": {"type": "integer"},
        "status": {"type": "string"},
        "message": {"type": "string"},
        "details": {"type": "array"},
    }
    return {
        "HTTPError": _object("HTTPError", {"error": _ref("Status")}, ["error"]),
        "Status": _object("Status", status, ["code", "message"]),
    }


def _document(revision: str, title: str, defs: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DIALECT_2020_12,
        "$id": schema_id(revision),
        "title": title,
        "$comment": "Generated by scripts/a2a_wire_schema.py; do not edit.",
        "x-a2a-revision": revision,
        "$defs": dict(sorted(defs.items())),
    }


def schema_1_0() -> dict[str, Any]:
    """The A2A 1.0 wire schema: one definition per message kind, as ProtoJSON."""
    defs: dict[str, Any] = {}
    for name in pb.A2A_MESSAGES:
        defs[name] = _proto_message(name, pb.a2a(name).DESCRIPTOR)
    for name, fields in card_fields.MESSAGES.items():
        defs[name] = _card_message(name, fields)
    requests = {
        "SendMessage": "SendMessageRequest",
        "SendStreamingMessage": "SendMessageRequest",
        "GetTask": "GetTaskRequest",
        "CancelTask": "CancelTaskRequest",
        "SubscribeToTask": "SubscribeToTaskRequest",
        "ListTasks": "ListTasksRequest",
    }
    results: dict[str, str | None] = dict(pb.RESPONSES)
    results["GetExtendedAgentCard"] = card_fields.CARD
    defs |= _jsonrpc_defs(results, requests)
    defs |= _http_error()
    return _document(A2A_1_0, "A2A 1.0 wire messages (ProtoJSON)", defs)


def _by_kind(title: str, kinds: dict[str, str]) -> dict[str, Any]:
    """A ``kind``-discriminated union: the member named by ``kind`` checks the rest."""
    return {
        "title": title,
        "type": "object",
        "properties": {"kind": {"title": f"{title}.kind", "enum": list(kinds)}},
        "required": ["kind"],
        "allOf": [
            {"if": {"properties": {"kind": {"const": k}}}, "then": _ref(v)}
            for k, v in kinds.items()
        ],
    }


#: A2A 0.3's JSON-RPC methods -> what their result is (None: not checked).
_RESULTS_0_3: dict[str, str | None] = {
    "message/send": "SendMessageResponse",
    "message/stream": "StreamResponse",
    "tasks/get": "Task",
    "tasks/cancel": "Task",
    "tasks/resubscribe": "StreamResponse",
    "agent/getAuthenticatedExtendedCard": "AgentCard",
}

#: The params each 0.3 JSON-RPC method takes, by the 0.3 schema's names.
_PARAMS_0_3: dict[str, str] = {
    "message/send": "MessageSendParams",
    "message/stream": "MessageSendParams",
    "tasks/get": "TaskQueryParams",
    "tasks/cancel": "TaskIdParams",
    "tasks/resubscribe": "TaskIdParams",
}

#: A2A 0.3's task states, as its JSON schema spells them.
STATES_0_3 = (
    "submitted",
    "working",
    "input-required",
    "completed",
    "canceled",
    "failed",
    "rejected",
    "auth-required",
    "unknown",
)


def schema_0_3() -> dict[str, Any]:
    """The A2A 0.3 wire schema: the objects tolerated agents send."""
    text, obj, strings = {"type": "string"}, {"type": "object"}, _array({"type": "string"})
    boolean, integer = {"type": "boolean"}, {"type": "integer"}
    states = {"type": "string", "enum": list(STATES_0_3)}
    roles = {"type": "string", "enum": ["user", "agent"]}
    defs: dict[str, Any] = {}
    part_base = {"metadata": obj}
    defs["TextPart"] = _object(
        "TextPart", {"kind": {"const": "text"}, "text": text, **part_base}, ["kind", "text"]
    )
    defs["DataPart"] = _object(
        "DataPart", {"kind": {"const": "data"}, "data": obj, **part_base}, ["kind", "data"]
    )
    defs["FilePart"] = _object(
        "FilePart", {"kind": {"const": "file"}, "file": obj, **part_base}, ["kind", "file"]
    )
    defs["Part"] = _by_kind("Part", {"text": "TextPart", "data": "DataPart", "file": "FilePart"})
    defs["Message"] = _object(
        "Message",
        {
            "kind": {"const": "message"},
            "messageId": text,
            "role": roles,
            "parts": _array(_ref("Part")),
            "contextId": text,
            "taskId": text,
            "referenceTaskIds": strings,
            "extensions": strings,
            "metadata": obj,
        },
        ["kind", "messageId", "role", "parts"],
    )
    defs["TaskStatus"] = _object(
        "TaskStatus",
        {"state": states, "message": _ref("Message"), "timestamp": text},
        ["state"],
    )
    defs["Artifact"] = _object(
        "Artifact",
        {
            "artifactId": text,
            "name": text,
            "description": text,
            "parts": _array(_ref("Part")),
            "extensions": strings,
            "metadata": obj,
        },
        ["artifactId", "parts"],
    )
    defs["Task"] = _object(
        "Task",
        {
            "kind": {"const": "task"},
            "id": text,
            "contextId": text,
            "status": _ref("TaskStatus"),
            "artifacts": _array(_ref("Artifact")),
            "history": _array(_ref("Message")),
            "metadata": obj,
        },
        ["kind", "id", "contextId", "status"],
    )
    defs["TaskStatusUpdateEvent"] = _object(
        "TaskStatusUpdateEvent",
        {
            "kind": {"const": "status-update"},
            "taskId": text,
            "contextId": text,
            "status": _ref("TaskStatus"),
            "final": boolean,
            "metadata": obj,
        },
        ["kind", "taskId", "contextId", "status", "final"],
    )
    defs["TaskArtifactUpdateEvent"] = _object(
        "TaskArtifactUpdateEvent",
        {
            "kind": {"const": "artifact-update"},
            "taskId": text,
            "contextId": text,
            "artifact": _ref("Artifact"),
            "append": boolean,
            "lastChunk": boolean,
            "metadata": obj,
        },
        ["kind", "taskId", "contextId", "artifact"],
    )
    defs["SendMessageResponse"] = _by_kind(
        "SendMessageResponse", {"task": "Task", "message": "Message"}
    )
    defs["StreamResponse"] = _by_kind(
        "StreamResponse",
        {
            "task": "Task",
            "message": "Message",
            "status-update": "TaskStatusUpdateEvent",
            "artifact-update": "TaskArtifactUpdateEvent",
        },
    )
    defs["AgentCard"] = _object(
        "AgentCard",
        {
            "protocolVersion": text,
            "name": text,
            "description": text,
            "url": text,
            "preferredTransport": text,
            "additionalInterfaces": _array(obj),
            "iconUrl": text,
            "provider": obj,
            "version": text,
            "documentationUrl": text,
            "capabilities": obj,
            "securitySchemes": obj,
            "security": _array(obj),
            "defaultInputModes": strings,
            "defaultOutputModes": strings,
            "skills": _array(obj),
            "supportsAuthenticatedExtendedCard": boolean,
            "signatures": _array(obj),
        },
        [
            "name",
            "description",
            "url",
            "version",
            "capabilities",
            "defaultInputModes",
            "defaultOutputModes",
            "skills",
        ],
    )
    # What sia-tui sends a tolerated 0.3 agent (HTTP+JSON posts MessageSendParams itself).
    defs["MessageSendParams"] = _object(
        "MessageSendParams",
        {"message": _ref("Message"), "configuration": obj, "metadata": obj},
        ["message"],
    )
    defs["TaskQueryParams"] = _object(
        "TaskQueryParams", {"id": text, "historyLength": integer, "metadata": obj}, ["id"]
    )
    defs["TaskIdParams"] = _object("TaskIdParams", {"id": text, "metadata": obj}, ["id"])
    defs |= _jsonrpc_defs(dict(_RESULTS_0_3), _PARAMS_0_3)
    return _document(A2A_0_3, "A2A 0.3 wire objects (tolerated agents)", defs)


#: Revision -> its generator.
GENERATORS = {A2A_1_0: schema_1_0, A2A_0_3: schema_0_3}


def schema_text(revision: str) -> str:
    """The file text of ``revision``'s schema, as committed."""
    return json.dumps(GENERATORS[revision](), indent=1, ensure_ascii=False) + "\n"


def write_all() -> list[Path]:
    """Write every revision's schema next to this module; the paths that changed."""
    changed = []
    for revision in REVISIONS:
        path = Path(__file__).with_name(schema_file(revision))
        text = schema_text(revision)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed
