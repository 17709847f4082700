"""What both codecs share: the request they build, its URL and body, and how A2A errors read."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import A2AProtocolError

JSON_CONTENT_TYPE = "application/json"
REST_CONTENT_TYPE = "application/a2a+json"
OPERATIONS = ("send", "stream", "get", "cancel", "subscribe", "list")

#: The A2A errors by ``ErrorInfo.reason`` (A2A 1.0 section 5.4): their name and JSON-RPC
#: code. The reason is what tells errors apart that share a gRPC code or HTTP status.
A2A_ERRORS: dict[str, tuple[str, int]] = {
    "TASK_NOT_FOUND": ("TaskNotFoundError", -32001),
    "TASK_NOT_CANCELABLE": ("TaskNotCancelableError", -32002),
    "PUSH_NOTIFICATION_NOT_SUPPORTED": ("PushNotificationNotSupportedError", -32003),
    "UNSUPPORTED_OPERATION": ("UnsupportedOperationError", -32004),
    "CONTENT_TYPE_NOT_SUPPORTED": ("ContentTypeNotSupportedError", -32005),
    "INVALID_AGENT_RESPONSE": ("InvalidAgentResponseError", -32006),
    "EXTENDED_AGENT_CARD_NOT_CONFIGURED": ("ExtendedAgentCardNotConfiguredError", -32007),
    "EXTENSION_SUPPORT_REQUIRED": ("ExtensionSupportRequiredError", -32008),
    "VERSION_NOT_SUPPORTED": ("VersionNotSupportedError", -32009),
    "INVALID_REQUEST": ("InvalidRequestError", -32600),
    "METHOD_NOT_FOUND": ("MethodNotFoundError", -32601),
    "INVALID_PARAMS": ("InvalidParamsError", -32602),
    "INTERNAL_ERROR": ("InternalError", -32603),
}


def new_message_id() -> str:
    """A fresh random ``messageId``, as ``str(uuid.uuid4())`` writes one.

    Not through :mod:`uuid`: on Linux it imports :mod:`platform` and asks for the system's
    name, about 6 ms of every `sia-tui check` for 36 characters.
    """
    return uuid4_text(os.urandom(16))


def uuid4_text(raw: bytes) -> str:
    """``str(uuid.UUID(bytes=raw, version=4))`` for 16 random bytes: RFC 4122's version 4
    (the version nibble 4, the variant bits 10), in 8-4-4-4-12 lowercase hex."""
    value = int.from_bytes(raw, "big")
    value &= ~((0xF000 << 64) | (0xC000 << 48))
    value |= (4 << 76) | (0x8000 << 48)
    hex_digits = f"{value:032x}"
    return "-".join(
        (hex_digits[:8], hex_digits[8:12], hex_digits[12:16], hex_digits[16:20], hex_digits[20:])
    )


@dataclass(frozen=True)
class WireRequest:
    """One HTTP request as a codec built it; the client adds headers and sends it."""

    operation: str  # "send", "stream", "get", "cancel", "subscribe", "list"
    method: str
    url: str
    body: bytes = b""
    content_type: str | None = None
    #: JSON-RPC id, or None for HTTP+JSON.
    rpc_id: int | None = None
    #: The answer is 0.3 REST ProtoJSON (data parts as ``{"data": {"data": ...}}``).
    proto03: bool = False

    @property
    def jsonrpc(self) -> bool:
        """True when the answer is a JSON-RPC envelope."""
        return self.rpc_id is not None


def encode(value: Any) -> bytes:
    """Compact UTF-8 JSON; NaN/Infinity are refused (they are not JSON)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def rest_url(iface: Interface, path: str) -> str:
    """``{interface.url}[/{tenant}]{path}`` (A2A 1.0 section 11: tenant as a path prefix)."""
    base = iface.url.rstrip("/")
    if iface.tenant:
        base += "/" + quote(iface.tenant, safe="")
    return base + path


def task_path(task_id: str) -> str:
    """``/tasks/{id}`` with the id percent-encoded (an agent-chosen id never escapes the path)."""
    return "/tasks/" + quote(task_id, safe="")


def check_operation(iface: Interface, operation: str) -> None:
    """Refuse what this client never calls: gRPC/custom bindings and unknown operations."""
    if operation not in OPERATIONS:
        raise ValueError(f"unknown operation {operation!r}")
    if not iface.callable:
        raise A2AProtocolError(f"binding {iface.binding!r} is shown but not called by sia-tui")
    if not iface.url.lower().startswith(("http://", "https://")):
        raise A2AProtocolError(f"interface URL is not http(s): {iface.url[:200]!r}")


def _reason(details: Any) -> str | None:
    """The ``ErrorInfo.reason`` of a typed-details array (JSON-RPC data / REST details)."""
    if isinstance(details, list):
        for item in details:
            if isinstance(item, dict) and isinstance(item.get("reason"), str):
                return str(item["reason"])
    return None


def _clip(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def jsonrpc_error(error: Any) -> A2AProtocolError:
    """``{"code","message","data"}`` -> A2AProtocolError (an A2A error, not a draft code)."""
    if not isinstance(error, dict):
        return A2AProtocolError(f"JSON-RPC error that is not an object: {_clip(error)}")
    code = error.get("code")
    message = _clip(error.get("message") or "no message")
    reason = _reason(error.get("data"))
    text = f"A2A JSON-RPC error {code}: {message}" + (f" ({reason})" if reason else "")
    return A2AProtocolError(text, code=code if isinstance(code, int | str) else None)


def unsupported_operation(exc: A2AProtocolError) -> bool:
    """True for UnsupportedOperationError in any binding: JSON-RPC -32004, or its reason
    (HTTP+JSON details, gRPC ErrorInfo). SubscribeToTask answers it for a task in a terminal
    state (A2A 1.0 section 3.1.6)."""
    code = A2A_ERRORS["UNSUPPORTED_OPERATION"][1]
    return exc.code in (code, "UNSUPPORTED_OPERATION") or "UNSUPPORTED_OPERATION" in exc.message


def unwrap_jsonrpc(payload: Any) -> Any:
    """The ``result`` of a JSON-RPC response, or raise its error."""
    if not isinstance(payload, dict):
        raise A2AProtocolError("JSON-RPC response is not a JSON object")
    if "error" in payload:
        raise jsonrpc_error(payload["error"])
    if "result" not in payload:
        raise A2AProtocolError("JSON-RPC response has neither 'result' nor 'error'")
    return payload["result"]


def http_error(status: int, content_type: str, payload: Any) -> A2AProtocolError | None:
    """An A2A error read from a non-2xx body (google.rpc.Status, problem+json, JSON-RPC)."""
    if not isinstance(payload, dict):
        return None
    error = payload.get("error")
    if isinstance(error, dict) and "jsonrpc" in payload:
        return jsonrpc_error(error)
    if isinstance(error, dict):
        name = error.get("status")
        reason = _reason(error.get("details"))
        message = _clip(error.get("message") or "no message")
        label = f"{status} {name}" if isinstance(name, str) else str(status)
        text = f"A2A HTTP error {label}: {message}" + (f" ({reason})" if reason else "")
        return A2AProtocolError(text, code=name if isinstance(name, str) else status)
    if "problem+json" in content_type or ("title" in payload and "status" in payload):
        title = _clip(payload.get("title") or payload.get("type") or "problem")
        detail = payload.get("detail")
        text = f"A2A HTTP error {status}: {title}" + (f": {_clip(detail)}" if detail else "")
        return A2AProtocolError(text, code=status)
    return None
