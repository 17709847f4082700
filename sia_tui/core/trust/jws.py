"""The one door to the JOSE library (joserfc): keys, raw JWS signing and verification.

Only modules that verify or make a signature import this one, so ``sia-tui --help``, a
plain ``check`` and the TUI's start never load joserfc or cryptography's key code. The
signing input is built by the caller (``ASCII(protected '.' payload)``, RFC 7515): the
forensics try inputs a standard library call would never build.
"""

from __future__ import annotations

from typing import Any

from joserfc import jwk
from joserfc.errors import JoseError
from joserfc.jws import JWSRegistry

from sia_tui.core.trust.records import ALLOWED_ALGORITHMS, TrustFileError

#: Algorithm -> (kty, crv) the key must have (crv None: any RSA key).
KEY_FOR_ALG: dict[str, tuple[str, str | None]] = {
    "ES256": ("EC", "P-256"),
    "ES384": ("EC", "P-384"),
    "RS256": ("RSA", None),
    "PS256": ("RSA", None),
    "EdDSA": ("OKP", "Ed25519"),
}
#: JWK members that are private (RFC 7518 section 6, RFC 8037): never kept or shown.
PRIVATE_MEMBERS = frozenset({"d", "p", "q", "dp", "dq", "qi", "oth", "k"})


def _import(data: dict[str, Any]) -> jwk.Key:
    kty = data.get("kty")
    if kty not in ("EC", "RSA", "OKP"):
        raise TrustFileError(f"key type {kty!r} cannot sign a card (EC, RSA or OKP)")
    try:
        key: jwk.Key = jwk.import_key(data, kty)
    except (JoseError, ValueError, TypeError) as exc:
        raise TrustFileError(f"not a usable {kty} key: {exc}") from None
    return key


def public_jwk(data: dict[str, Any]) -> dict[str, Any]:
    """The public JWK of ``data`` (a public or private JWK), checked by the library."""
    key = _import(data)
    public: dict[str, Any] = dict(key.as_dict(private=False))
    for member in ("kid", "alg", "use", "key_ops", "exp", "x5c"):
        if member in data:
            public[member] = data[member]
    return {k: v for k, v in public.items() if k not in PRIVATE_MEMBERS}


def key_mismatch(alg: str, data: dict[str, Any]) -> str | None:
    """Why the key cannot be used with ``alg`` (its type, curve or own ``alg``), else None."""
    kty, crv = KEY_FOR_ALG[alg]
    if data.get("kty") != kty or (crv is not None and data.get("crv") != crv):
        have = "/".join(str(data.get(m)) for m in ("kty", "crv") if data.get(m) is not None)
        need = kty + (f"/{crv}" if crv else "")
        return f"{alg} needs a {need} key; the trusted key is {have or 'untyped'}"
    if data.get("alg") not in (None, alg):
        return f"the trusted key is for {data.get('alg')}, not {alg}"
    return None


def verify(alg: str, signing_input: bytes, signature: bytes, data: dict[str, Any]) -> bool:
    """True when ``signature`` over ``signing_input`` verifies with the public key ``data``."""
    assert alg in ALLOWED_ALGORITHMS, alg  # refused algorithms never reach the library
    key = _import(data)
    try:
        return bool(JWSRegistry.algorithms[alg].verify(signing_input, signature, key))
    except (JoseError, ValueError, TypeError):
        return False  # a malformed signature (wrong length for RSA) verifies nothing


def sign(alg: str, signing_input: bytes, data: dict[str, Any]) -> bytes:
    """The raw JWS signature of ``signing_input`` with the private key ``data``."""
    if not PRIVATE_MEMBERS & data.keys():
        raise TrustFileError("the signing key is a public key: give the private JWK")
    problem = key_mismatch(alg, data)
    if problem:
        raise TrustFileError(problem)
    key = _import(data)
    try:
        return bytes(JWSRegistry.algorithms[alg].sign(signing_input, key))
    except (JoseError, ValueError, TypeError) as exc:
        raise TrustFileError(f"cannot sign with this key: {exc}") from None


def default_algorithm(data: dict[str, Any]) -> str:
    """The algorithm a key signs with when the user names none (its ``alg``, else by type)."""
    declared = data.get("alg")
    if isinstance(declared, str) and declared in ALLOWED_ALGORITHMS:
        return declared
    for alg, (kty, crv) in KEY_FOR_ALG.items():
        if data.get("kty") == kty and (crv is None or data.get("crv") == crv):
            return alg
    raise TrustFileError(
        "this key signs with none of " + ", ".join(ALLOWED_ALGORITHMS) + " (an EC P-256 or "
        "P-384, RSA or Ed25519 key is needed)"
    )


def thumbprint(key: dict[str, Any]) -> str:
    """The RFC 7638 SHA-256 thumbprint of a JWK (base64url), from its public members."""
    return str(jwk.import_key(key).thumbprint())


def generate(alg: str, kid: str) -> dict[str, Any]:
    """A new private JWK for ``alg`` (the reference agent's demo key)."""
    key: jwk.Key
    if alg in ("ES256", "ES384"):
        key = jwk.ECKey.generate_key("P-256" if alg == "ES256" else "P-384", {"kid": kid})
    elif alg == "EdDSA":
        key = jwk.OKPKey.generate_key("Ed25519", parameters={"kid": kid})
    else:
        key = jwk.RSAKey.generate_key(2048, parameters={"kid": kid})
    return {**key.as_dict(private=True), "alg": alg}
