"""Signature forensics: which common signer mistake reproduces a card signature that does
not verify, as the digest forensics do for a digest (``interface/forensics.py``)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

from sia_tui.core.errors import CanonicalizationError
from sia_tui.core.interface.forensics import NON_JCS_SERIALIZATIONS
from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.trust import jws
from sia_tui.core.trust.card_canon import CardPayloads, b64url, payload_value
from sia_tui.core.trust.card_fields import SIGNATURES
from sia_tui.core.trust.records import Canonicalization, TrustedKey

#: (how the signing input was wrongly built, the fix), for the mistakes of encoding.
_UNENCODED = (
    "the payload not base64url-encoded (RFC 7797 b64=false)",
    "8.4.2 signs ASCII(BASE64URL(header) '.' BASE64URL(payload)): encode the payload",
)
_PADDED = (
    "the payload base64url-encoded with '=' padding",
    "base64url in JWS has no padding (RFC 7515 section 2)",
)
_STANDARD = (
    "the payload in standard base64 ('+', '/', padding)",
    "JWS uses base64url (RFC 7515 section 2)",
)


def _jcs(value: Any) -> bytes | None:
    try:
        return canonical_bytes(value)
    except CanonicalizationError:
        return None


def _inputs(protected: str, index: int, payloads: CardPayloads) -> Iterator[tuple[str, str, bytes]]:
    """(mistake, fix, signing input) for every mistake tried, most common first."""
    card = payloads.card
    head = protected.encode("ascii") + b"."
    signatures = card.get(SIGNATURES)
    earlier = list(signatures)[:index] if isinstance(signatures, list) else []
    kept = (
        ("with its signatures as served", card),
        ("with signatures: []", {**card, SIGNATURES: []}),
        ("with the signatures before this one", {**card, SIGNATURES: earlier}),
    )
    for how in Canonicalization:
        for what, variant in kept:
            data = _jcs(payload_value(variant, how, keep_signatures=True))
            if data is not None:
                mistake = f"the card {what} ({how})"
                fix = "8.4.1: exclude the signatures member from the signed content"
                yield mistake, fix, head + b64url(data).encode("ascii")
    for how in Canonicalization:
        value = payload_value(card, how)
        for _name, make, description in NON_JCS_SERIALIZATIONS:
            try:
                data = make(value)
            except (TypeError, ValueError, RecursionError):
                continue
            fix = "8.4.1: sign the RFC 8785 (JCS) bytes"
            yield f"{description} of the card ({how})", fix, head + b64url(data).encode("ascii")
        canonical = payloads.get(how)
        if canonical is None:
            continue
        for (mistake, fix), encoded in (
            (_UNENCODED, canonical),
            (_PADDED, base64.urlsafe_b64encode(canonical)),
            (_STANDARD, base64.b64encode(canonical)),
        ):
            yield f"{mistake} ({how})", fix, head + encoded
    if payloads.received is not None:
        fix = "8.4.1: sign the canonical form of the card, not the bytes served"
        received = payloads.received
        yield "the card's bytes as served", fix, head + b64url(received).encode("ascii")
        yield "the card's bytes as served, unencoded", fix, head + received


def _raw_from_der(signature: bytes, alg: str) -> bytes | None:
    """An ECDSA signature in DER (what most crypto libraries return) as JWS's r||s."""
    if not alg.startswith("ES"):
        return None
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    try:
        r, s = decode_dss_signature(signature)
    except ValueError:
        return None
    size = 32 if alg == "ES256" else 48
    if r.bit_length() > size * 8 or s.bit_length() > size * 8:
        return None
    return r.to_bytes(size, "big") + s.to_bytes(size, "big")


def diagnose(
    protected: str,
    signature: bytes,
    alg: str,
    keys: list[TrustedKey],
    index: int,
    payloads: CardPayloads,
) -> str:
    """Why a signature under a trusted key does not verify, in one sentence."""
    kids = ", ".join(sorted({key.kid for key in keys}))
    lead = f"does not verify with the trusted key {kids} under a2a-1.0, drop-empty or jcs-only"

    def verifies(signing_input: bytes, raw: bytes) -> bool:
        return any(jws.verify(alg, signing_input, raw, key.jwk) for key in keys)

    for mistake, fix, signing_input in _inputs(protected, index, payloads):
        if verifies(signing_input, signature):
            return f"{lead}; it verifies over {mistake}: {fix}"
    raw = _raw_from_der(signature, alg)
    if raw is not None:
        for how in Canonicalization:
            payload = payloads.get(how)
            if payload is not None and verifies(
                protected.encode("ascii") + b"." + b64url(payload).encode("ascii"), raw
            ):
                return (
                    f"{lead}; it is a DER-encoded ECDSA signature that verifies ({how}): "
                    "RFC 7518 section 3.4 wants the raw r||s bytes"
                )
    return (
        f"{lead}, and no common mistake reproduces it: the card changed after it was "
        "signed, or another key signed it under this kid"
    )
