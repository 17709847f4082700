"""The recorded Agent Card with its interfaces pointed at the mock, and nothing else changed.

Only the bytes of each interface's URL string are replaced, in place: every other byte of
the card (member order, spacing, numbers as written, digests) is the agent's, so a digest
over the card's other members still verifies. A signature over the card does not: it
covers the URLs (docs say so).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.jsonkit.pointer import PositionIndex, escape
from sia_tui.core.jsonkit.strictjson import loads

#: Where a card lists its interfaces: 1.0's list, 0.3's main URL and additional list.
_LISTS = ("supportedInterfaces", "additionalInterfaces")


def interface_pointers(card: Any) -> dict[str, bool]:
    """JSON pointer -> True for a gRPC interface, of every interface URL in a card (1.0 or
    0.3) that is HTTP(S) or names the gRPC binding."""
    if not isinstance(card, dict):
        return {}
    found = {}
    if _http(card.get("url")):
        found["/url"] = False
    for name in _LISTS:
        listed = card.get(name)
        for index, each in enumerate(listed if isinstance(listed, list) else []):
            if not isinstance(each, dict) or not isinstance(each.get("url"), str):
                continue
            binding = each.get("protocolBinding", each.get("transport"))
            if binding == "GRPC" or _http(each["url"]):
                found[f"/{escape(name)}/{index}/url"] = binding == "GRPC"
    return found


def _http(value: Any) -> bool:
    return isinstance(value, str) and value.lower().startswith(("http://", "https://"))


def moved_grpc(url: str, address: str) -> str:
    """A gRPC interface's ``host:port`` (or ``grpc://host:port``) moved to ``address``."""
    scheme, sep, _ = url.partition("://")
    return f"{scheme}://{address}" if sep else address


def moved(url: str, base: str) -> str:
    """``url`` with its scheme and authority replaced by ``base``'s (path and query kept)."""
    old, new = urlsplit(url), urlsplit(base)
    return urlunsplit((new.scheme, new.netloc, old.path, old.query, old.fragment))


def rewrite_card(
    body: bytes, base: str, grpc_address: str | None = None, *, extended: bool = False
) -> bytes:
    """The card's bytes with each HTTP(S) interface URL moved to ``base`` and each gRPC
    one to ``grpc_address`` (left as recorded when the mock serves no gRPC); bytes that
    are not a JSON card are served as they were recorded. ``extended``: a
    GetExtendedAgentCard answer, whose card is the ``result`` of a JSON-RPC answer."""
    try:
        text = body.decode("utf-8")
        card = loads(text)
    except (UnicodeDecodeError, JsonInputError, SiaError):
        return body
    if extended and isinstance(card, dict) and "jsonrpc" in card:
        pointers = {
            f"/result{pointer}": grpc
            for pointer, grpc in interface_pointers(
                card.get("result") if isinstance(card, dict) else None
            ).items()
        }
    else:
        pointers = interface_pointers(card)
    if not pointers:
        return body
    index = PositionIndex(text)
    decoder = json.JSONDecoder()
    spans = []
    for pointer, is_grpc in pointers.items():
        if is_grpc and grpc_address is None:
            continue
        start = index.offset(pointer, fallback=False)
        if start is None:
            continue
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(value, str):
            new = (
                moved_grpc(value, grpc_address) if is_grpc and grpc_address else moved(value, base)
            )
            spans.append((start, end, json.dumps(new, ensure_ascii=False)))
    for start, end, replacement in sorted(spans, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text.encode("utf-8")
