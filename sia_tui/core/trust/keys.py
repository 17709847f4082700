"""Trusted keys, only from the user: a JWKS file or a URL the user names (never ``jku``).

Every key is reduced to its public members on load (a private JWK given by mistake is
never kept, stored in a session or shown), symmetric keys are refused (HMAC with a public
value is the classic algorithm-confusion forgery), and a key's expiry is read from its
``exp`` member or its certificate's notAfter (A2A 1.0 section 8.4.3: expired keys MUST NOT
be used).
"""

from __future__ import annotations

import base64
import binascii
import datetime
from typing import Any

from sia_tui.core.errors import FileInputError, JsonInputError
from sia_tui.core.jsonkit import strictjson
from sia_tui.core.local_file import read_regular_file
from sia_tui.core.trust.records import TrustedKey, TrustFileError

#: Largest JWKS or JWK accepted, in bytes: a key set of a few keys is a few kilobytes.
MAX_KEYS_BYTES = 1024 * 1024
#: Most keys one set may hold.
MAX_KEYS = 64
#: Largest RSA modulus used, in bits. Keys in use are 2048 to 4096 bits (8192 at the most
#: cautious); verifying costs about the square of the modulus size, so one 16,384-bit key
#: costs four 8192-bit ones, and a set of them made step 1 spend seconds of CPU per card.
MAX_RSA_BITS = 8192
#: Seconds a JWKS URL the user named gets to answer.
FETCH_TIMEOUT = 10.0


def read_keys_text(location: str) -> bytes:
    """The bytes of a JWKS file, or of an http(s) URL the user named (no redirect followed:
    where the server points is not what the user chose)."""
    if location.lower().startswith(("http://", "https://")):
        return _fetch(location)
    try:
        # The one reader of user-named files: a FIFO or a device is refused, not waited on.
        data = read_regular_file(location, MAX_KEYS_BYTES).data
    except FileInputError as exc:
        raise TrustFileError(str(exc)) from None
    if len(data) > MAX_KEYS_BYTES:
        raise TrustFileError(f"{location} is over the {MAX_KEYS_BYTES}-byte limit of a key set")
    return data


def _fetch(url: str) -> bytes:
    import httpx  # only when the user names a URL

    try:
        with (
            httpx.Client(timeout=FETCH_TIMEOUT, follow_redirects=False) as client,
            client.stream("GET", url, headers={"Accept": "application/json"}) as reply,
        ):
            if reply.status_code != 200:
                raise TrustFileError(f"{url} answered HTTP {reply.status_code}, not a key set")
            data = b""
            for chunk in reply.iter_bytes():
                data += chunk
                if len(data) > MAX_KEYS_BYTES:
                    raise TrustFileError(f"{url} sent over {MAX_KEYS_BYTES} bytes")
            return data
    except httpx.HTTPError as exc:
        raise TrustFileError(f"cannot fetch {url}: {exc}") from None


def parse_keys(data: bytes, source: str) -> tuple[tuple[TrustedKey, ...], list[str]]:
    """The usable public keys of a JWKS (``{"keys": [...]}``) or a single JWK, and a note
    for each key left out. Raises ``TrustFileError`` when none is usable."""
    from sia_tui.core.trust.jws import public_jwk  # validating a key needs the library

    try:
        value = strictjson.loads(data, source=source, max_bytes=MAX_KEYS_BYTES, max_depth=16)
    except JsonInputError as exc:
        raise TrustFileError(f"{source}: not JSON: {exc.message}") from None
    entries = value.get("keys") if isinstance(value, dict) and "keys" in value else [value]
    if not isinstance(entries, list) or not entries:
        raise TrustFileError(f'{source}: expected a JWKS {{"keys": [...]}} or one JWK')
    keys: list[TrustedKey] = []
    notes: list[str] = []
    for index, entry in enumerate(entries[:MAX_KEYS]):
        where = f"{source} key {index}"
        problem = _unusable(entry)
        if problem:
            notes.append(f"{where} left out: {problem}")
            continue
        too_large = rsa_too_large(entry)
        if too_large:
            notes.append(f"{where} left out: {too_large}")
            continue
        try:
            public = public_jwk(entry)
            expires = _expiry(entry)
        except TrustFileError as exc:
            notes.append(f"{where} left out: {exc}")
            continue
        keys.append(TrustedKey(kid=entry["kid"], jwk=public, expires=expires))
    if len(entries) > MAX_KEYS:
        extra = len(entries) - MAX_KEYS
        notes.append(f"{source}: {extra} keys past the first {MAX_KEYS} ignored")
    if not keys:
        first = f" ({notes[0]})" if notes else ""
        raise TrustFileError(f"{source}: no usable public key{first}")
    return tuple(keys), notes


def rsa_too_large(jwk: dict[str, Any]) -> str | None:
    """Why an RSA key is never tried (its modulus is over ``MAX_RSA_BITS``), else None.
    Measured from the JWK's ``n`` without importing the key."""
    modulus = jwk.get("n")
    if jwk.get("kty") != "RSA" or not isinstance(modulus, str):
        return None
    # base64url: 4 characters per 3 bytes; leading zero bytes are rare and only shrink it.
    if len(modulus) <= (MAX_RSA_BITS // 8) * 4 // 3 + 4:
        return None
    try:
        bits = int.from_bytes(base64.urlsafe_b64decode(modulus + "=" * (-len(modulus) % 4)))
    except (binascii.Error, ValueError):
        return None  # the library refuses it on import
    if bits.bit_length() <= MAX_RSA_BITS:
        return None
    return f"an RSA modulus of {bits.bit_length()} bits, over the {MAX_RSA_BITS}-bit limit"


def _unusable(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "not a JWK object"
    if entry.get("kty") == "oct":
        return "a symmetric (oct) key is never trusted: HMAC with a shared value is forgeable"
    if not isinstance(entry.get("kid"), str) or not entry["kid"]:
        return "no kid: a signature names its key by kid"
    if entry.get("use") not in (None, "sig"):
        return f"use {entry.get('use')!r} is not for signatures"
    ops = entry.get("key_ops")
    if isinstance(ops, list) and "verify" not in ops:
        return "key_ops does not include verify"
    return None


def _expiry(entry: dict[str, Any]) -> float | None:
    """The earliest of the key's ``exp`` and its first certificate's notAfter, epoch s."""
    found: list[float] = []
    exp = entry.get("exp")
    if isinstance(exp, int | float) and not isinstance(exp, bool):
        found.append(float(exp))
    chain = entry.get("x5c")
    if isinstance(chain, list) and chain and isinstance(chain[0], str):
        from cryptography import x509

        try:
            cert = x509.load_der_x509_certificate(base64.b64decode(chain[0], validate=True))
        except (binascii.Error, ValueError) as exc:
            raise TrustFileError(f"x5c certificate unreadable: {exc}") from None
        found.append(cert.not_valid_after_utc.timestamp())
    return min(found) if found else None


def expired_at(key: TrustedKey, now: float) -> str | None:
    """When the key expired (UTC, ISO 8601) if it has, else None."""
    if key.expires is None or key.expires > now:
        return None
    moment = datetime.datetime.fromtimestamp(key.expires, datetime.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def load_trusted_keys(location: str) -> tuple[tuple[TrustedKey, ...], list[str]]:
    """``--trusted-keys``: the public keys at a file or a URL, with notes on any left out."""
    return parse_keys(read_keys_text(location), location)
