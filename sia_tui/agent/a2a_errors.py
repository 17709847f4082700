"""A2A errors as the agent writes them (JSON-RPC and HTTP+JSON), and a request's id.

Small and without the agent's skills: the reference agent and the mock (``agent/mock``)
both answer with these, and the mock loads nothing else of the agent.
"""

from __future__ import annotations

from typing import Any

ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


def error_info(reason: str) -> list[dict[str, Any]]:
    """Typed error details (A2A-NOTES §2.4)."""
    return [{"@type": ERROR_INFO, "reason": reason, "domain": "a2a-protocol.org", "metadata": {}}]


def jsonrpc_error(
    request_id: Any, code: int, message: str, reason: str, *, legacy: bool = False
) -> dict[str, Any]:
    """A JSON-RPC error response; 0.3 agents carry no typed details."""
    error: dict[str, Any] = {"code": code, "message": message}
    if not legacy:
        error["data"] = error_info(reason)
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def rest_error(http_status: int, status: str, message: str, reason: str) -> dict[str, Any]:
    """An HTTP+JSON error body (``google.rpc.Status``)."""
    return {
        "error": {
            "code": http_status,
            "status": status,
            "message": message,
            "details": error_info(reason),
        }
    }


#: What ``request_id`` answers for an id JSON-RPC does not allow (an object, an array...).
INVALID_ID = object()


def request_id(body: Any) -> Any:
    """The id of a JSON-RPC request: a string, an integer or null (absent); INVALID_ID
    for any other value (JSON-RPC 2.0 section 4: such a request is invalid, -32600)."""
    if not isinstance(body, dict):
        return None
    rid = body.get("id")
    if rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    return INVALID_ID
