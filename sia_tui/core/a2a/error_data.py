"""An A2A error as data, read from the exchange that carried it, for every binding.

``check --json``, JUnit, the bug report, HAR and ``send`` each show the same object:
``{code, name, message, data, binding_status}``: the JSON-RPC ``code`` (HTTP+JSON and
gRPC: the ``ErrorInfo.reason``, else the status name), the A2A error's ``name``
(``TaskNotFoundError``...), the agent's ``message``, its ``data`` (JSON-RPC ``data``,
HTTP+JSON ``details``, gRPC status details) and the ``binding_status`` (the HTTP status,
or the gRPC status code's name). It is built here, once, from the recorded bytes: a
session (already redacted) gives the same answer as the live run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sia_tui.core import limits
from sia_tui.core.a2a.http.wire import A2A_ERRORS
from sia_tui.core.errors import SiaError
from sia_tui.core.exchange import GRPC_CODES, Exchange
from sia_tui.core.jsonkit.strictjson import loads

#: JSON-RPC code -> the A2A error's name.
_NAMES_BY_CODE = {code: name for name, code in A2A_ERRORS.values()}
#: The longest message kept (the agent's text; the body has all of it).
_MESSAGE_CHARS = 1000


@dataclass(frozen=True)
class A2AErrorData:
    """One A2A error, as the agent sent it."""

    code: int | str | None
    name: str | None
    message: str
    data: Any
    binding_status: int | str | None

    def to_json(self) -> dict[str, Any]:
        """The ``a2a_error`` object every report writes."""
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "data": self.data,
            "binding_status": self.binding_status,
        }


def a2a_error_of(exchange: Exchange) -> A2AErrorData | None:
    """The A2A error ``exchange``'s answer carries (JSON-RPC error, HTTP+JSON error body,
    gRPC status with its ErrorInfo), or None for an answer that is not one."""
    if exchange.grpc:
        return _grpc(exchange)
    bodies = [exchange.response_body, *reversed(exchange.events)]  # a stream ends with it
    for body in bodies:
        payload = _json(body)
        error = payload.get("error") if isinstance(payload, dict) else None
        if isinstance(error, dict):
            return (
                _jsonrpc(error, exchange.status)
                if "jsonrpc" in payload
                else _rest(error, exchange.status)
            )
    return None


def _json(body: bytes) -> Any:
    if not body or len(body) > limits.MAX_JSON_BYTES:
        return None
    try:
        return loads(body, source="error body")
    except SiaError:
        return None


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    return text[:_MESSAGE_CHARS]


def _reason(details: Any) -> str | None:
    for item in details if isinstance(details, list) else ():
        if isinstance(item, dict) and isinstance(item.get("reason"), str) and item["reason"]:
            return str(item["reason"])
    return None


def _by_reason(reason: str | None) -> str | None:
    known = A2A_ERRORS.get(reason) if reason is not None else None
    return known[0] if known else None


def _jsonrpc(error: dict[str, Any], status: int | None) -> A2AErrorData:
    code = error.get("code")
    code = code if isinstance(code, int | str) and not isinstance(code, bool) else None
    data = error.get("data")
    name = _NAMES_BY_CODE.get(code) if isinstance(code, int) else None
    return A2AErrorData(
        code, name or _by_reason(_reason(data)), _text(error.get("message")), data, status
    )


def _rest(error: dict[str, Any], status: int | None) -> A2AErrorData:
    details = error.get("details")
    reason = _reason(details)
    named = error.get("status")
    code = reason or (named if isinstance(named, str) else None) or status
    return A2AErrorData(code, _by_reason(reason), _text(error.get("message")), details, status)


def _grpc(exchange: Exchange) -> A2AErrorData | None:
    status = exchange.status
    if status is None or status == 0:
        return None
    body = _json(exchange.response_body)
    body = body if isinstance(body, dict) else {}
    details = body.get("details")
    reason = _reason(details)
    name = GRPC_CODES[status] if 0 <= status < len(GRPC_CODES) else f"CODE_{status}"
    message = body.get("message", _header(exchange, "grpc-message"))
    return A2AErrorData(reason or name, _by_reason(reason), _text(message), details, name)


def _header(exchange: Exchange, name: str) -> str:
    return next((v for k, v in exchange.response_headers if k.lower() == name), "")
