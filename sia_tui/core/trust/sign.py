"""``sia-tui sign-card``: a correct A2A 1.0 section 8.4 signature, so a vendor can fix theirs.

The payload is the ``a2a-1.0`` canonicalization (8.4.1: the card without ``signatures``,
defaults removed by field presence, RFC 8785); the protected header has ``alg``, ``kid``
and ``typ: "JOSE"`` (8.4.2), and ``jku`` when asked. Existing signatures are kept, after
them the new one (several signatures serve a key rotation, 8.4.3).
"""

from __future__ import annotations

from typing import Any

from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.trust import jws
from sia_tui.core.trust.card_canon import b64url, payload_bytes
from sia_tui.core.trust.card_fields import SIGNATURES
from sia_tui.core.trust.records import (
    ALLOWED_ALGORITHMS,
    Canonicalization,
    SignatureCheck,
    TrustAnchors,
    TrustedKey,
    TrustFileError,
)


def protected_header(alg: str, kid: str, jku: str | None = None) -> str:
    """The base64url protected header (its JSON in RFC 8785 form, so it is reproducible)."""
    header: dict[str, Any] = {"alg": alg, "kid": kid, "typ": "JOSE"}
    if jku:
        header["jku"] = jku
    return b64url(canonical_bytes(header))


def sign_card(
    card: dict[str, Any],
    key: dict[str, Any],
    *,
    kid: str | None = None,
    alg: str | None = None,
    jku: str | None = None,
) -> dict[str, Any]:
    """``card`` with one more signature by the private JWK ``key`` (the input is not changed)."""
    chosen_alg = alg or jws.default_algorithm(key)
    if chosen_alg not in ALLOWED_ALGORITHMS:
        raise TrustFileError(f"alg {chosen_alg} is not one of {', '.join(ALLOWED_ALGORITHMS)}")
    chosen_kid = kid or key.get("kid")
    if not isinstance(chosen_kid, str) or not chosen_kid:
        raise TrustFileError("the key has no kid: name one with --kid (8.4.2 requires it)")
    protected = protected_header(chosen_alg, chosen_kid, jku)
    payload = payload_bytes(card, Canonicalization.A2A_1_0)
    signing_input = (protected + "." + b64url(payload)).encode("ascii")
    signature = b64url(jws.sign(chosen_alg, signing_input, key))
    earlier = card.get(SIGNATURES)
    signatures = list(earlier) if isinstance(earlier, list) else []
    return {**card, SIGNATURES: [*signatures, {"protected": protected, "signature": signature}]}


def public_key_set(key: dict[str, Any]) -> dict[str, Any]:
    """The JWKS a verifier trusts for ``key``: its public members only."""
    return {"keys": [jws.public_jwk(key)]}


def read_private_key(data: Any, source: str) -> dict[str, Any]:
    """The one private JWK of a JWK or a JWKS file's parsed JSON."""
    keys = data.get("keys") if isinstance(data, dict) and "keys" in data else [data]
    private = [
        k for k in keys or [] if isinstance(k, dict) and jws.PRIVATE_MEMBERS & set(k) - {"k"}
    ]
    if len(private) != 1:
        raise TrustFileError(
            f"{source}: expected one private EC, RSA or OKP JWK, found {len(private)}"
        )
    return private[0]


def self_check(card: dict[str, Any], key: dict[str, Any], kid: str | None = None) -> SignatureCheck:
    """The verdict on the card's last signature with ``key``'s public part under ``kid``
    (default: the key's own): what a verifier that trusts the key will say."""
    from sia_tui.core.trust.verify import check_signatures

    public = jws.public_jwk(key)
    anchors = TrustAnchors(keys=(TrustedKey(kid=str(kid or public.get("kid")), jwk=public),))
    return check_signatures(card, anchors)[-1]


def new_signing_key(alg: str = "ES256", kid: str | None = "sia-demo-key") -> dict[str, Any]:
    """A fresh private JWK (the reference agent's demo key when none is given); with
    ``kid`` None, its kid is its RFC 7638 thumbprint (unique to the key, for a vendor's)."""
    key = jws.generate(alg, kid or "new")
    return key if kid else {**key, "kid": jws.thumbprint(key)}
