"""Verify every signature of an Agent Card (A2A 1.0 section 8.4.3) under three
canonicalizations, with keys only from the user.

A signature is ``verified`` when a trusted key with its kid and an allowed algorithm
verifies it over the bytes of one canonicalization; ``invalid`` when such a key exists and
none of them verifies (the forensics then name the mistake); ``unverifiable`` otherwise:
no trusted key has its kid, the key expired, or its header or algorithm is refused. ``jku``
and ``x5u`` are hints: never fetched (RULES SR7).
"""

from __future__ import annotations

import time
from typing import Any

from sia_tui.core.errors import JsonInputError
from sia_tui.core.jsonkit import strictjson
from sia_tui.core.trust.card_canon import CardPayloads, b64url, b64url_decode, unknown_fields
from sia_tui.core.trust.card_fields import SIGNATURES
from sia_tui.core.trust.keys import expired_at, rsa_too_large
from sia_tui.core.trust.records import (
    ALLOWED_ALGORITHMS,
    Canonicalization,
    SignatureCheck,
    SignatureVerdict,
    TrustAnchors,
    TrustedKey,
)

#: Most signatures checked and listed for one card (step 1 warns about the rest).
MAX_SIGNATURES = 16
#: Most invalid signatures of one card the forensics explain: each tries ~50 payloads.
MAX_FORENSICS = 2
#: Largest canonical card the forensics re-serialize, in bytes (a card is a few KB).
MAX_FORENSICS_BYTES = 256 * 1024
#: Most trusted keys tried for one kid, in the key set's order. A kid names one key
#: (RFC 7517 section 4.5 wants it unique in a set); a rotation that keeps the old key under
#: the same kid holds two or three. Each key is tried on three canonicalizations and, for an
#: invalid signature, some fifty forensic inputs: 64 keys under one kid cost 16 times 4.
MAX_KEYS_PER_KID = 4
#: Largest protected header decoded, in bytes (joserfc's own limit is 512).
MAX_HEADER_BYTES = 8192

UNVERIFIABLE, INVALID = SignatureVerdict.UNVERIFIABLE, SignatureVerdict.INVALID


def check_signatures(
    card: dict[str, Any],
    anchors: TrustAnchors | None,
    *,
    received: bytes | None = None,
    now: float | None = None,
) -> list[SignatureCheck]:
    """One verdict per entry of the card's ``signatures``, in order ([] when unsigned)."""
    entries = card.get(SIGNATURES)
    if not isinstance(entries, list):
        return []
    payloads = CardPayloads(card, received)
    moment = time.time() if now is None else now
    # A card is agent data: a flood of signatures is bounded (the step says how many more).
    return [
        _check_one(index, entry, anchors, payloads, moment)
        for index, entry in enumerate(entries[:MAX_SIGNATURES])
    ]


def _check_one(
    index: int, entry: Any, anchors: TrustAnchors | None, payloads: CardPayloads, now: float
) -> SignatureCheck:
    check = SignatureCheck(index=index, verdict=UNVERIFIABLE)
    if not isinstance(entry, dict) or not isinstance(entry.get("protected"), str):
        check.reason = "malformed: an AgentCardSignature needs a protected string (8.4.2)"
        return check
    header = _header(entry["protected"])
    if header is None:
        check.reason = "refused: the protected header is not base64url-encoded JSON (8.4.2)"
        return check
    kid, alg, jku = (header.get(k) for k in ("kid", "alg", "jku"))
    check.kid = kid if isinstance(kid, str) else None
    check.alg = alg if isinstance(alg, str) else None
    check.jku = jku if isinstance(jku, str) else None
    refusal = _refused(header, check)
    if refusal:
        check.reason = "refused: " + refusal
        return check
    assert check.kid is not None and check.alg is not None
    keys = anchors.keys_for(check.kid) if anchors is not None else []
    if not keys:
        check.reason = _unknown_kid(check, anchors)
        return check
    live = [key for key in keys if expired_at(key, now) is None]
    if not live:
        when = expired_at(keys[0], now)
        check.reason = f"refused: the trusted key {check.kid} expired at {when} (8.4.3)"
        return check
    from sia_tui.core.trust import jws  # a trusted kid: now the library is needed

    matching = [key for key in live if jws.key_mismatch(check.alg, key.jwk) is None]
    check.verdict = INVALID
    if not matching:
        check.reason = str(jws.key_mismatch(check.alg, live[0].jwk))
        return check
    usable, check.keys_not_tried = _keys_tried(check.kid, matching)
    if not usable:
        check.verdict = UNVERIFIABLE
        check.reason = f"no trusted key with kid {check.kid} was tried"
        return check
    signature = entry.get("signature")
    try:
        raw = b64url_decode(signature) if isinstance(signature, str) else b""
    except ValueError:
        raw = b""
    if not raw:
        check.reason = "the signature member is missing or not base64url (8.4.2)"
        return check
    for how in Canonicalization:
        payload = payloads.get(how)
        if payload is None:
            continue
        signing_input = (entry["protected"] + "." + b64url(payload)).encode("ascii")
        if any(jws.verify(check.alg, signing_input, raw, key.jwk) for key in usable):
            check.verdict, check.canonicalization = SignatureVerdict.VERIFIED, how
            check.reason = _caveat(how, payloads.card)
            return check
    spec = payloads.get(Canonicalization.A2A_1_0)
    if payloads.diagnosed >= MAX_FORENSICS or spec is None or len(spec) > MAX_FORENSICS_BYTES:
        check.reason = (
            f"does not verify with the trusted key {check.kid} (no forensics: they explain "
            f"the first {MAX_FORENSICS} invalid signatures of a card up to "
            f"{MAX_FORENSICS_BYTES // 1024} KiB)"
        )
        return check
    from sia_tui.core.trust.sig_forensics import diagnose  # only for a failed signature

    payloads.diagnosed += 1
    check.reason = diagnose(entry["protected"], raw, check.alg, usable, index, payloads)
    return check


def _keys_tried(kid: str, keys: list[TrustedKey]) -> tuple[list[TrustedKey], str | None]:
    """The keys tried for ``kid`` (at most ``MAX_KEYS_PER_KID``, none over the RSA size
    limit), and which were not, numbered by their order among this kid's keys. The
    anchors may come from a session file, so the load-time check is not relied on."""
    tried: list[TrustedKey] = []
    skipped: list[str] = []
    for number, key in enumerate(keys, 1):
        too_large = rsa_too_large(key.jwk)
        if too_large:
            skipped.append(f"key {number} ({too_large})")
        elif len(tried) < MAX_KEYS_PER_KID:
            tried.append(key)
        else:
            skipped.append(f"key {number} (past the {MAX_KEYS_PER_KID} tried per kid)")
    if not skipped:
        return tried, None
    listed = "; ".join(skipped[:6]) + (f"; and {len(skipped) - 6} more" if len(skipped) > 6 else "")
    return (
        tried,
        f"{len(skipped)} of the {len(keys)} trusted keys with kid {kid} not tried: {listed}",
    )


def _header(protected: str) -> dict[str, Any] | None:
    if len(protected) > MAX_HEADER_BYTES * 2:  # decoded, a third smaller: no need to decode
        return None
    try:
        data = b64url_decode(protected)
        if len(data) > MAX_HEADER_BYTES:
            return None
        value = strictjson.loads(data, max_bytes=MAX_HEADER_BYTES, max_depth=8)
    except (ValueError, JsonInputError):
        return None
    return value if isinstance(value, dict) else None


def _refused(header: dict[str, Any], check: SignatureCheck) -> str | None:
    """Why this header is never verified, else None (8.4.2, RFC 7515 section 4.1.11)."""
    alg = check.alg
    if alg is not None and alg.lower() == "none":
        return "alg none is an unsigned card"
    if alg is not None and alg.upper().startswith("HS"):
        return (
            f"{alg} is HMAC: verifying it with a public key used as the HMAC secret is the "
            "algorithm-confusion forgery"
        )
    if alg is None or check.kid is None:
        missing = " and ".join(n for n, v in (("alg", alg), ("kid", check.kid)) if v is None)
        return f"the protected header lacks {missing} (8.4.2: it MUST include both)"
    if alg not in ALLOWED_ALGORITHMS:
        return f"alg {alg} is not one of {', '.join(ALLOWED_ALGORITHMS)}"
    if "crit" in header:
        return "the header's crit names extensions this verifier does not process"
    return None


def _unknown_kid(check: SignatureCheck, anchors: TrustAnchors | None) -> str:
    if anchors is None or not anchors.keys:
        why = "no trusted keys were given (--trusted-keys)"
    else:
        why = f"no trusted key has kid {check.kid}"
    if check.jku:
        why += f"; its jku {check.jku} is a hint and was not fetched: trust that key yourself"
    return why


def _caveat(how: Canonicalization, card: dict[str, Any]) -> str | None:
    """What a verified signature does not cover: drop-empty ignores fields A2A 1.0 does not
    define, so they could have been changed after signing."""
    if how is not Canonicalization.DROP_EMPTY:
        return None
    unknown = unknown_fields(card)
    if not unknown:
        return None
    return "drop-empty does not cover the members A2A 1.0 does not define: " + ", ".join(
        unknown[:8]
    )
