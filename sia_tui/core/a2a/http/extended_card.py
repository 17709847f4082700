"""GetExtendedAgentCard over the HTTP bindings: the request per binding and dialect.

A2A 1.0: JSON-RPC ``GetExtendedAgentCard``, HTTP+JSON ``GET /extendedAgentCard``; 0.3:
JSON-RPC ``agent/getAuthenticatedExtendedCard``, REST ``GET /v1/card`` (A2A-NOTES). The
answer is a whole card, read like the public one.
"""

from __future__ import annotations

from typing import Any

from sia_tui.core.a2a.http.wire import JSON_CONTENT_TYPE, WireRequest, encode, rest_url
from sia_tui.core.a2a.views import Interface, ProtocolBinding


def extended_card_request(iface: Interface, rpc_id: int) -> WireRequest:
    """The GetExtendedAgentCard request on ``iface`` (JSON-RPC or HTTP+JSON)."""
    legacy = iface.dialect == "0.3"
    if iface.binding == ProtocolBinding.JSONRPC:
        params: dict[str, Any] = {"tenant": iface.tenant} if iface.tenant else {}
        method = "agent/getAuthenticatedExtendedCard" if legacy else "GetExtendedAgentCard"
        envelope = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}
        return WireRequest(
            "extended-card", "POST", iface.url, encode(envelope), JSON_CONTENT_TYPE, rpc_id
        )
    path = "/v1/card" if legacy else "/extendedAgentCard"
    return WireRequest("extended-card", "GET", rest_url(iface, path))
