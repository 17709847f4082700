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


def interface_pointers(card: Any) -> list[str]:
    """JSON pointers of every HTTP(S) interface URL in a card (1.0 or 0.3)."""
    if not isinstance(card, dict):
        return []
    found = []
    if _http(card.get("url")):
        found.append("/url")
    for name in _LISTS:
        listed = card.get(name)
        for index, each in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(each, dict) and _http(each.get("url")):
                found.append(f"/{escape(name)}/{index}/url")
    return found


def _http(value: Any) -> bool:
    return isinstance(value, str) and value.lower().startswith(("http://", "https://"))


def moved(url: str, base: str) -> str:
    """``url`` with its scheme and authority replaced by ``base``'s (path and query kept)."""
    old, new = urlsplit(url), urlsplit(base)
    return urlunsplit((new.scheme, new.netloc, old.path, old.query, old.fragment))


def rewrite_card(body: bytes, base: str) -> bytes:
    """The card's bytes with each HTTP(S) interface URL moved to ``base``; bytes that are
    not a JSON card are served as they were recorded."""
    try:
        text = body.decode("utf-8")
        card = loads(text)
    except (UnicodeDecodeError, JsonInputError, SiaError):
        return body
    pointers = interface_pointers(card)
    if not pointers:
        return body
    index = PositionIndex(text)
    decoder = json.JSONDecoder()
    spans = []
    for pointer in pointers:
        start = index.offset(pointer, fallback=False)
        if start is None:
            continue
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(value, str):
            spans.append((start, end, json.dumps(moved(value, base), ensure_ascii=False)))
    for start, end, replacement in sorted(spans, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text.encode("utf-8")
