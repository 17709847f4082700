"""Card signatures verified, invalid or unverifiable, and why (A2A 1.0 section 8.4.3)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.trust import jws
from sia_tui.core.trust.card_canon import payload_bytes, payload_value
from sia_tui.core.trust.keys import parse_keys
from sia_tui.core.trust.records import (
    Canonicalization,
    SignatureVerdict,
    TrustedKey,
    TrustFileError,
)
from sia_tui.core.trust.sign import sign_card
from sia_tui.core.trust.verify import MAX_FORENSICS, MAX_SIGNATURES, check_signatures
from tests.support.signing import (
    CARD,
    anchors,
    b64,
    header,
    hmac_forgery,
    jwks_server,
    signature,
    signed,
)

VERIFIED, INVALID = SignatureVerdict.VERIFIED, SignatureVerdict.INVALID
UNVERIFIABLE = SignatureVerdict.UNVERIFIABLE
#: The three key types the issue names, and the other two allowed algorithms.
ALGORITHMS = ("ES256", "RS256", "EdDSA", "ES384", "PS256")


@pytest.fixture(scope="module")
def keys() -> dict[str, dict[str, Any]]:
    return {alg: jws.generate(alg, f"key-{alg}") for alg in ALGORITHMS}


@pytest.mark.parametrize("how", list(Canonicalization))
@pytest.mark.parametrize("alg", ALGORITHMS)
def test_each_key_type_verifies_under_each_canonicalization_and_says_which(
    keys: dict[str, dict[str, Any]], alg: str, how: Canonicalization
) -> None:
    key = keys[alg]
    [check] = check_signatures(signed(CARD, signature(CARD, key, how)), anchors(key))
    assert (check.verdict, check.canonicalization) == (VERIFIED, how)
    assert (check.kid, check.alg) == (key["kid"], alg)


def test_sign_card_makes_a_section_8_4_signature(keys: dict[str, dict[str, Any]]) -> None:
    card = sign_card(CARD, keys["ES256"], jku="https://agent.example/jwks.json")
    entry = card["signatures"][0]
    protected = json.loads(jws_b64decode(entry["protected"]))
    assert protected == {
        "alg": "ES256",
        "kid": "key-ES256",
        "typ": "JOSE",
        "jku": "https://agent.example/jwks.json",
    }
    [check] = check_signatures(card, anchors(keys["ES256"]))
    assert check.canonicalization is Canonicalization.A2A_1_0


def jws_b64decode(text: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_several_signatures_in_card_order_one_verified_is_enough(
    keys: dict[str, dict[str, Any]],
) -> None:
    """Key rotation: an old key no longer trusted, the new one verified."""
    card = signed(CARD, signature(CARD, keys["RS256"]), signature(CARD, keys["EdDSA"]))
    checks = check_signatures(card, anchors(keys["EdDSA"]))
    assert [c.verdict for c in checks] == [UNVERIFIABLE, VERIFIED]
    assert [c.index for c in checks] == [0, 1]


def test_an_unsigned_card_has_no_verdicts() -> None:
    assert check_signatures(CARD, None) == []


# -- refused: never verified --------------------------------------------------------------
def test_alg_none_is_refused(keys: dict[str, dict[str, Any]]) -> None:
    entry = {"protected": header(alg="none", kid="key-ES256"), "signature": ""}
    [check] = check_signatures(signed(CARD, entry), anchors(keys["ES256"]))
    assert check.verdict is UNVERIFIABLE and "none" in (check.reason or "")


def test_hmac_with_the_public_key_as_secret_is_refused(keys: dict[str, dict[str, Any]]) -> None:
    """The algorithm-confusion forgery: a verifier that took HS256 would accept it."""
    public = jws.public_jwk(keys["ES256"])
    [check] = check_signatures(signed(CARD, hmac_forgery(CARD, public)), anchors(keys["ES256"]))
    assert check.verdict is UNVERIFIABLE
    assert "HMAC" in (check.reason or "") and check.alg == "HS256"


@pytest.mark.parametrize("missing", ["alg", "kid"])
def test_a_header_without_alg_or_kid_is_refused(
    keys: dict[str, dict[str, Any]], missing: str
) -> None:
    key = keys["ES256"]
    members = {"alg": "ES256", "kid": key["kid"], "typ": "JOSE"}
    del members[missing]
    entry = signature(CARD, key, protected=header(**members))
    [check] = check_signatures(signed(CARD, entry), anchors(key))
    assert check.verdict is UNVERIFIABLE and f"lacks {missing}" in (check.reason or "")
    assert getattr(check, missing) is None


def test_an_algorithm_outside_the_list_is_refused(keys: dict[str, dict[str, Any]]) -> None:
    entry = {"protected": header(alg="ES512", kid="key-ES256"), "signature": "AAAA"}
    [check] = check_signatures(signed(CARD, entry), anchors(keys["ES256"]))
    assert check.verdict is UNVERIFIABLE and "not one of" in (check.reason or "")


def test_an_expired_key_is_never_used(keys: dict[str, dict[str, Any]]) -> None:
    key = keys["ES256"]
    expired = TrustedKey(kid=key["kid"], jwk=jws.public_jwk(key), expires=time.time() - 60)
    trust = anchors()
    trust = type(trust)(keys=(expired,))
    [check] = check_signatures(signed(CARD, signature(CARD, key)), trust)
    assert check.verdict is UNVERIFIABLE and "expired" in (check.reason or "")


def test_an_unknown_kid_is_unverifiable_and_its_jku_is_never_fetched(
    keys: dict[str, dict[str, Any]],
) -> None:
    """RULES SR7: jku names where the signer says its key is; the verifier never goes."""
    key = keys["ES256"]
    with jwks_server() as (url, hits):
        protected = header(alg="ES256", kid=key["kid"], typ="JOSE", jku=url)
        card = signed(CARD, signature(CARD, key, protected=protected))
        for trust in (None, anchors(keys["RS256"]), anchors(key)):
            check_signatures(card, trust)
        [check] = check_signatures(card, anchors(keys["RS256"]))
        assert hits == []
    assert check.verdict is UNVERIFIABLE and check.jku == url
    assert "not fetched" in (check.reason or "")


# -- invalid: a trusted key, and the forensics say why --------------------------------------
def test_content_changed_after_signing_is_invalid(keys: dict[str, dict[str, Any]]) -> None:
    card = signed(CARD, signature(CARD, keys["RS256"]))
    card["name"] = "Impostor"
    [check] = check_signatures(card, anchors(keys["RS256"]))
    assert check.verdict is INVALID and check.canonicalization is None
    assert "changed after it was signed" in (check.reason or "")


def test_a_key_of_the_wrong_type_under_the_kid_is_invalid(keys: dict[str, dict[str, Any]]) -> None:
    impostor = {**jws.public_jwk(keys["RS256"]), "kid": "key-ES256"}
    trust = type(anchors())(keys=(TrustedKey(kid="key-ES256", jwk=impostor),))
    [check] = check_signatures(signed(CARD, signature(CARD, keys["ES256"])), trust)
    assert check.verdict is INVALID and "EC/P-256" in (check.reason or "")


def _mistakes(key: dict[str, Any]) -> dict[str, tuple[dict[str, str], str]]:
    spec = payload_value(CARD, Canonicalization.A2A_1_0)
    canonical = payload_bytes(CARD, Canonicalization.A2A_1_0)
    protected = header(alg=key["alg"], kid=key["kid"], typ="JOSE")
    left_in = {**CARD, "signatures": []}
    return {
        "signatures-left-in": (
            signature(left_in, key, payload=canonical_bytes(left_in)),
            "signatures: []",
        ),
        "json-dumps": (
            signature(CARD, key, payload=json.dumps(spec, sort_keys=True).encode()),
            "json.dumps",
        ),
        "unencoded": (
            signature(
                CARD, key, signing_input=protected.encode() + b"." + canonical, protected=protected
            ),
            "b64=false",
        ),
    }


@pytest.mark.parametrize("mistake", ["signatures-left-in", "json-dumps", "unencoded"])
def test_forensics_name_the_signers_mistake(keys: dict[str, dict[str, Any]], mistake: str) -> None:
    key = keys["ES256"]
    entry, named = _mistakes(key)[mistake]
    [check] = check_signatures(signed(CARD, entry), anchors(key))
    assert check.verdict is INVALID
    assert named in (check.reason or "")


def test_forensics_find_a_signature_over_the_bytes_served(keys: dict[str, dict[str, Any]]) -> None:
    key = keys["EdDSA"]
    served = json.dumps(CARD, indent="\t").encode() + b"\r\n"  # as a file on disk
    card = signed(CARD, signature(CARD, key, payload=served))
    [check] = check_signatures(card, anchors(key), received=served)
    assert "bytes as served" in (check.reason or "")


def test_forensics_find_a_der_encoded_ecdsa_signature(keys: dict[str, dict[str, Any]]) -> None:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from joserfc.jwk import ECKey

    key = keys["ES256"]
    protected = header(alg="ES256", kid=key["kid"], typ="JOSE")
    signing_input = (protected + "." + b64(payload_bytes(CARD, Canonicalization.A2A_1_0))).encode()
    private = ECKey.import_key(key).private_key
    assert isinstance(private, ec.EllipticCurvePrivateKey)
    der = private.sign(signing_input, ec.ECDSA(hashes.SHA256()))
    card = signed(CARD, {"protected": protected, "signature": b64(der)})
    [check] = check_signatures(card, anchors(key))
    assert check.verdict is INVALID and "DER" in (check.reason or "")


# -- the user's keys ------------------------------------------------------------------------
def test_trusted_keys_keep_only_public_members(keys: dict[str, dict[str, Any]]) -> None:
    """A private JWK given by mistake is never kept (nor stored in a session)."""
    data = json.dumps({"keys": [keys["ES256"], keys["RS256"]]}).encode()
    loaded, notes = parse_keys(data, "keys.json")
    assert notes == []
    for key in loaded:
        assert not {"d", "p", "q", "dp", "dq", "qi"} & key.jwk.keys()


def test_symmetric_and_kidless_keys_are_left_out(keys: dict[str, dict[str, Any]]) -> None:
    kidless = {k: v for k, v in jws.public_jwk(keys["ES256"]).items() if k != "kid"}
    data = json.dumps({"keys": [{"kty": "oct", "k": "c2VjcmV0", "kid": "h"}, kidless]}).encode()
    with pytest.raises(TrustFileError) as caught:
        parse_keys(data, "keys.json")
    assert "symmetric" in str(caught.value)
    loaded, notes = parse_keys(
        json.dumps({"keys": [kidless, jws.public_jwk(keys["EdDSA"])]}).encode(), "k.json"
    )
    assert [k.kid for k in loaded] == ["key-EdDSA"] and "no kid" in notes[0]


def test_a_keys_exp_member_is_its_expiry(keys: dict[str, dict[str, Any]]) -> None:
    public = {**jws.public_jwk(keys["ES256"]), "exp": 1_000}
    [key], _ = parse_keys(json.dumps({"keys": [public]}).encode(), "k.json")
    assert key.expires == 1_000.0


# -- bounds: a card is agent data -----------------------------------------------------------
def test_a_flood_of_signatures_is_bounded(keys: dict[str, dict[str, Any]]) -> None:
    entry = {"protected": header(alg="none", kid="x"), "signature": ""}
    checks = check_signatures(signed(CARD, *[entry] * 5000), anchors(keys["ES256"]))
    assert len(checks) == MAX_SIGNATURES


def test_forensics_explain_only_the_first_invalid_signatures(
    keys: dict[str, dict[str, Any]],
) -> None:
    """Each explanation re-serializes the card some fifty ways: a card naming the trusted
    kid on many bad signatures must not cost that many times."""
    key = keys["ES256"]
    bad = signature({**CARD, "name": "other"}, key)
    checks = check_signatures(signed(CARD, *[bad] * 4), anchors(key))
    assert [c.verdict for c in checks] == [INVALID] * 4
    explained = ["no common mistake" in (c.reason or "") for c in checks]
    assert explained == [True] * MAX_FORENSICS + [False] * (4 - MAX_FORENSICS)


def _rsa_public(bits: int, kid: str = "k") -> dict[str, Any]:
    """An RSA public JWK of ``bits`` bits: any odd modulus imports (no primality check), which
    is all a hostile key set needs."""
    import secrets

    modulus = secrets.randbits(bits) | (1 << (bits - 1)) | 1
    return {"kty": "RSA", "kid": kid, "n": b64(modulus.to_bytes(bits // 8, "big")), "e": "AQAB"}


def test_keys_tried_per_kid_and_rsa_size_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """64 RSA keys of 16,384 bits under one kid cost 24-29 s of CPU in step 1 (each tried on
    three canonicalizations and some fifty forensic inputs). At most MAX_KEYS_PER_KID keys of
    a kid are tried and none over MAX_RSA_BITS; the verdict says which were not tried."""
    from sia_tui.core.trust.keys import MAX_RSA_BITS
    from sia_tui.core.trust.records import TrustAnchors
    from sia_tui.core.trust.verify import MAX_KEYS_PER_KID

    tried: list[str] = []
    real = jws.verify

    def counting(alg: str, signing_input: bytes, raw: bytes, data: dict[str, Any]) -> bool:
        tried.append(data["n"])
        return real(alg, signing_input, raw, data)

    monkeypatch.setattr(jws, "verify", counting)
    huge = [_rsa_public(16384) for _ in range(3)]
    fair = [_rsa_public(2048) for _ in range(MAX_KEYS_PER_KID + 2)]
    trusted = TrustAnchors(keys=tuple(TrustedKey(kid="k", jwk=k) for k in (*huge, *fair)))
    entry = {"protected": header(alg="RS256", kid="k"), "signature": b64(b"\1" * 256)}
    [check] = check_signatures(signed(CARD, entry), trusted)
    assert check.verdict is INVALID
    assert set(tried) == {k["n"] for k in fair[:MAX_KEYS_PER_KID]}
    assert check.keys_not_tried is not None
    assert check.keys_not_tried.startswith("5 of the 9 trusted keys with kid k not tried")
    assert f"key 1 (an RSA modulus of 16384 bits, over the {MAX_RSA_BITS}-bit limit)" in (
        check.keys_not_tried
    )
    assert f"key 9 (past the {MAX_KEYS_PER_KID} tried per kid)" in check.keys_not_tried
    assert check.keys_not_tried in check.summary


def test_an_oversized_rsa_key_is_left_out_of_a_key_set_with_a_note() -> None:
    data = json.dumps({"keys": [_rsa_public(16384, "big"), _rsa_public(2048, "ok")]}).encode()
    keys, notes = parse_keys(data, "k.json")
    assert [k.kid for k in keys] == ["ok"]
    assert notes == ["k.json key 0 left out: an RSA modulus of 16384 bits, over the 8192-bit limit"]
