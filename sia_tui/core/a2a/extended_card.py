"""GetExtendedAgentCard: the request per binding and dialect, and what the answer adds.

A2A 1.0: JSON-RPC ``GetExtendedAgentCard``, HTTP+JSON ``GET /extendedAgentCard``; 0.3:
JSON-RPC ``agent/getAuthenticatedExtendedCard``, REST ``GET /v1/card`` (A2A-NOTES). The
answer is a whole card, read like the public one.
"""

from __future__ import annotations

from typing import Any

from sia_tui.core.a2a.http.wire import JSON_CONTENT_TYPE, WireRequest, encode, rest_url
from sia_tui.core.a2a.views import AgentCard, Interface

#: The operation name an exchange of this call is recorded under.
PURPOSE = "extended agent card"
#: Top-level members whose change is not worth a line (the signatures cover the public card).
_IGNORED = frozenset({"signatures"})


def extended_card_request(iface: Interface, rpc_id: int) -> WireRequest:
    """The GetExtendedAgentCard request on ``iface`` (JSON-RPC or HTTP+JSON)."""
    legacy = iface.dialect == "0.3"
    if iface.binding == "JSONRPC":
        params: dict[str, Any] = {"tenant": iface.tenant} if iface.tenant else {}
        method = "agent/getAuthenticatedExtendedCard" if legacy else "GetExtendedAgentCard"
        envelope = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}
        return WireRequest(
            "extended-card", "POST", iface.url, encode(envelope), JSON_CONTENT_TYPE, rpc_id
        )
    path = "/v1/card" if legacy else "/extendedAgentCard"
    return WireRequest("extended-card", "GET", rest_url(iface, path))


def what_it_adds(public: AgentCard, extended: AgentCard) -> str:
    """One line: the skills the extended card adds (or drops) and the members it changes."""
    before = {s.id for s in public.skills}
    after = {s.id for s in extended.skills}
    parts = []
    if added := sorted(after - before):
        parts.append(f"adds skills {', '.join(added[:20])}")
    if dropped := sorted(before - after):
        parts.append(f"drops skills {', '.join(dropped[:20])}")
    changed = sorted(
        name
        for name in set(public.raw) | set(extended.raw)
        if name not in _IGNORED
        and name != "skills"
        and public.raw.get(name) != extended.raw.get(name)
    )
    if changed:
        parts.append(f"changes {', '.join(changed[:20])}")
    return "; ".join(parts) or "adds nothing to the public card"
