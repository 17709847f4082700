"""The bytes an Agent Card signature covers, under each of the three canonicalizations.

A2A 1.0 section 8.4.1 signs RFC 8785 (JCS) of the card without ``signatures``, with
default-valued fields removed by proto field presence. A2A#2122 disputes the rule, and
a2a-sdk 1.3.0 signs other bytes, so a verifier tries each (``Canonicalization``).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

from sia_tui.core.errors import CanonicalizationError
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.trust.card_fields import CARD, LIST, MAP, MESSAGE, MESSAGES, SIGNATURES, Field
from sia_tui.core.trust.records import Canonicalization


def without_signatures(card: dict[str, Any]) -> dict[str, Any]:
    """The card minus its ``signatures`` member (they cannot sign themselves, 8.4.1)."""
    return {key: value for key, value in card.items() if key != SIGNATURES}


def payload_value(
    card: dict[str, Any], how: Canonicalization, *, keep_signatures: bool = False
) -> Any:
    """The card as ``how`` prepares it for JCS (``signatures`` removed unless kept: the
    forensics try a signer that forgot to remove them)."""
    body = card if keep_signatures else without_signatures(card)
    if how is Canonicalization.A2A_1_0:
        return _spec_strip(body, CARD)
    if how is Canonicalization.DROP_EMPTY:
        return _drop_empty(_proto_json(body, CARD))
    return body


def payload_bytes(card: dict[str, Any], how: Canonicalization) -> bytes:
    """The signed bytes under ``how``: JCS of :func:`payload_value` (may raise
    ``CanonicalizationError``: a number RFC 8785 cannot write)."""
    return canonical_bytes(payload_value(card, how))


def _is_default(value: Any) -> bool:
    """The proto3 default of an implicit-presence field: "", false, 0, empty list or map."""
    if value is False or value == "" or value == [] or value == {}:
        return True
    return type(value) in (int, float) and value == 0


def _child(value: Any, field: Field, strip: Any) -> Any:
    """``strip`` applied to the message(s) inside a field's value; other values as is."""
    if field.of is None:
        return value
    if field.shape is MESSAGE:
        return strip(value, field.of)
    if field.shape is LIST and isinstance(value, list):
        return [strip(item, field.of) for item in value]
    if field.shape is MAP and isinstance(value, dict):
        return {key: strip(item, field.of) for key, item in value.items()}
    return value


def _spec_strip(value: Any, message: str) -> Any:
    """8.4.1: REQUIRED fields stay even at their default, explicitly present ones stay,
    others at their default go; a field A2A 1.0 does not know is kept as served."""
    fields = MESSAGES.get(message)
    if not isinstance(value, dict) or fields is None:
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            out[key] = item
        elif field.required:
            out[key] = _child(item, field, _spec_strip)
        elif item is None or (not field.explicit and _is_default(item)):
            continue  # null is ProtoJSON's "unset"
        else:
            out[key] = _child(item, field, _spec_strip)
    return out


def _proto_json(value: Any, message: str) -> Any:
    """What ProtoJSON writes after parsing: unknown fields dropped (the a2a-sdk parses
    with ignore_unknown_fields), null and implicit fields at their default omitted."""
    fields = MESSAGES.get(message)
    if not isinstance(value, dict) or fields is None:
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None or item is None or (not field.explicit and _is_default(item)):
            continue
        out[key] = _child(item, field, _proto_json)
    return out


def _drop_empty(value: Any) -> Any:
    """a2a-sdk 1.3.0 ``_clean_empty``: every empty string, list and map, and null, removed
    recursively (a container left empty goes too); None stands for "removed"."""
    if isinstance(value, dict):
        kept = {k: v for k, item in value.items() if (v := _drop_empty(item)) is not None}
        return kept or None
    if isinstance(value, list):
        items = [v for item in value if (v := _drop_empty(item)) is not None]
        return items or None
    if value == "" and isinstance(value, str):
        return None
    return value


def unknown_fields(card: dict[str, Any]) -> list[str]:
    """Top-level members A2A 1.0 does not define: drop-empty leaves them unsigned."""
    fields = MESSAGES[CARD]
    return [key for key in card if key not in fields]


def b64url(data: bytes) -> str:
    """Base64url without padding (RFC 7515 section 2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict base64url without padding; ValueError for anything else."""
    if not text or "=" in text or any(c in text for c in "+/ \n"):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error:
        raise ValueError("not base64url") from None


@dataclass
class CardPayloads:
    """The card's signed bytes per canonicalization, computed once for every signature."""

    card: dict[str, Any]
    #: The card's bytes as received (the forensics try them); None for a parsed value only.
    received: bytes | None = None
    _cache: dict[Canonicalization, bytes | None] = field(default_factory=dict)
    #: How many invalid signatures of this card the forensics explained (they are bounded).
    diagnosed: int = 0

    def get(self, how: Canonicalization) -> bytes | None:
        """The bytes under ``how``; None when the card has no RFC 8785 form."""
        if how not in self._cache:
            try:
                self._cache[how] = payload_bytes(self.card, how)
            except CanonicalizationError:
                self._cache[how] = None
        return self._cache[how]
