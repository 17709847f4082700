"""A gRPC status as the A2A error it is: ``google.rpc.Status`` with its ``ErrorInfo``.

A2A 1.0 puts ``google.rpc.Status{code, message, details[]}`` in the
``grpc-status-details-bin`` trailer, with an ``ErrorInfo{reason, domain:
"a2a-protocol.org"}`` naming the error. Several A2A errors share one gRPC code
(FAILED_PRECONDITION is six of them), so the reason, not the code, says which it is.
"""

from __future__ import annotations

import base64
from typing import Any

from google.protobuf.message import DecodeError

from sia_tui.core.a2a.grpc.messages import as_json, message_class
from sia_tui.core.a2a.grpc.messages import encode_message as pb_encode
from sia_tui.core.a2a.http.wire import A2A_ERRORS
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.exchange import GRPC_CODES

_TYPE_PREFIX = "type.googleapis.com/"
#: The detail types read (others are shown by type with their bytes' size).
_DETAILS = ("google.rpc.ErrorInfo", "google.rpc.BadRequest")


def _detail(any_message: Any) -> dict[str, Any]:
    type_url = str(any_message.type_url)
    name = type_url.rpartition("/")[2]
    if name not in _DETAILS:
        return {"@type": type_url, "value": base64.b64encode(any_message.value).decode()}
    detail = message_class(name)()
    try:
        detail.ParseFromString(any_message.value)
    except DecodeError:
        return {"@type": type_url, "error": "not a valid " + name}
    return {"@type": type_url, **as_json(detail, name)}


def status_json(code: int, message: str, details_bin: bytes | None) -> dict[str, Any]:
    """The call's status as ProtoJSON: the trailer's ``google.rpc.Status`` when it decodes,
    else the bare code and message (``code`` and ``message`` always as the call ended)."""
    status: dict[str, Any] = {"code": code, "message": message}
    if details_bin:
        parsed = message_class("google.rpc.Status")()
        try:
            parsed.ParseFromString(details_bin)
        except DecodeError:
            status["details"] = [{"error": "grpc-status-details-bin is not a google.rpc.Status"}]
        else:
            fields: Any = parsed  # a message class built at run time: no static fields
            status["details"] = [_detail(item) for item in fields.details]
            if fields.code != code or fields.message != message:
                # Forgiven, but kept: the trailer disagrees with the call's own status.
                status["detailsStatus"] = {"code": fields.code, "message": fields.message}
    return status


def status_bytes(code: int, message: str, details: list[dict[str, Any]]) -> bytes:
    """A ``google.rpc.Status`` for the ``grpc-status-details-bin`` trailer: the reference
    agent's errors, and a recorded status served again (replay). ``details`` as
    :func:`status_json` writes them (ErrorInfo and BadRequest members, or base64)."""
    status: Any = message_class("google.rpc.Status")(code=code, message=message)
    for detail in details:
        type_url = str(detail.get("@type", ""))
        name = type_url.rpartition("/")[2]
        packed = status.details.add()
        packed.type_url = type_url
        if name in _DETAILS:
            fields = {k: v for k, v in detail.items() if k != "@type"}
            packed.value = pb_encode(name, fields)
        elif isinstance(detail.get("value"), str):
            packed.value = base64.b64decode(detail["value"])
    return bytes(status.SerializeToString())


def code_name(code: int) -> str:
    """``NOT_FOUND`` for 5; unknown numbers as ``CODE_99``."""
    return GRPC_CODES[code] if 0 <= code < len(GRPC_CODES) else f"CODE_{code}"


def reason_of(status: dict[str, Any]) -> str | None:
    """The ``ErrorInfo.reason`` of a status, if it carries one."""
    for detail in status.get("details", []):
        if str(detail.get("@type", "")).endswith("/google.rpc.ErrorInfo"):
            reason = detail.get("reason")
            if isinstance(reason, str) and reason:
                return reason
    return None


def grpc_error(status: dict[str, Any], method: str) -> A2AProtocolError:
    """A non-OK status as an A2AProtocolError that names the A2A error (by its reason)."""
    code = int(status.get("code", 2))
    name = code_name(code)
    text = str(status.get("message") or "no message")[:300]
    reason = reason_of(status)
    if reason is not None:
        known = A2A_ERRORS.get(reason)
        what = f"{reason}: {known[0]}" if known else reason
        return A2AProtocolError(f"A2A gRPC error {name}: {text} ({what})", code=reason)
    if name == "UNIMPLEMENTED":
        return A2AProtocolError(
            f"gRPC {name}: the server does not implement {method}; it is not an A2A 1.0 "
            f"gRPC service ({text})",
            code=name,
        )
    return A2AProtocolError(f"gRPC error {name} without an A2A ErrorInfo: {text}", code=name)
