"""Card-signing helpers for the trust tests: keys, signatures made the right way under any
canonicalization or the wrong way, and a loopback server that must never be asked."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from sia_tui.core.jsonkit.canonical import canonical_bytes
from sia_tui.core.trust import jws
from sia_tui.core.trust.card_canon import payload_bytes
from sia_tui.core.trust.records import Canonicalization, TrustAnchors, TrustedKey

#: A card whose three canonicalizations differ: an empty REQUIRED description, a set false
#: optional, an implicit ``required: false``, an empty non-REQUIRED list.
CARD: dict[str, Any] = {
    "name": "Signed Agent",
    "description": "",
    "version": "1.0.0",
    "supportedInterfaces": [
        {"url": "https://agent.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "capabilities": {
        "streaming": False,
        "extensions": [{"uri": "https://ext.example/x", "required": False, "params": {"a": ""}}],
    },
    "securityRequirements": [],
    "defaultInputModes": ["application/json"],
    "defaultOutputModes": ["application/json"],
    "skills": [{"id": "s", "name": "S", "description": "d", "tags": []}],
}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def header(**members: Any) -> str:
    """A protected header with exactly these members."""
    return b64(json.dumps(members).encode())


def signature(
    card: dict[str, Any],
    key: dict[str, Any],
    how: Canonicalization = Canonicalization.A2A_1_0,
    *,
    protected: str | None = None,
    payload: bytes | None = None,
    signing_input: bytes | None = None,
) -> dict[str, str]:
    """An AgentCardSignature over ``card`` by ``key`` (or over ``payload``/``signing_input``,
    to make a signer's mistake)."""
    alg = key["alg"]
    protected = protected or header(alg=alg, kid=key["kid"], typ="JOSE")
    data = payload if payload is not None else payload_bytes(card, how)
    signed = signing_input or (protected + "." + b64(data)).encode("ascii")
    return {"protected": protected, "signature": b64(jws.sign(alg, signed, key))}


def signed(card: dict[str, Any], *entries: dict[str, str]) -> dict[str, Any]:
    return {**card, "signatures": list(entries)}


def anchors(*keys: dict[str, Any], **options: Any) -> TrustAnchors:
    """Anchors trusting the public part of each private key."""
    trusted = tuple(TrustedKey(kid=k["kid"], jwk=jws.public_jwk(k)) for k in keys)
    return TrustAnchors(keys=trusted, **options)


def hmac_forgery(card: dict[str, Any], public: dict[str, Any]) -> dict[str, str]:
    """The algorithm-confusion forgery: HMAC keyed with the victim's public key text."""
    protected = header(alg="HS256", kid=public["kid"], typ="JOSE")
    signing_input = (protected + "." + b64(canonical_bytes(card))).encode("ascii")
    secret = json.dumps(public, sort_keys=True).encode()
    mac = hmac.new(secret, signing_input, hashlib.sha256).digest()
    return {"protected": protected, "signature": b64(mac)}


class _Counting(BaseHTTPRequestHandler):
    hits: list[str]
    body: bytes

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        self.hits.append(self.path)
        body = self.body
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@contextmanager
def jwks_server(body: bytes = b'{"keys": []}') -> Iterator[tuple[str, list[str]]]:
    """A JWKS server on 127.0.0.1 (ephemeral port) answering ``body``: its URL and every
    path asked of it."""
    hits: list[str] = []
    handler = type("Handler", (_Counting,), {"hits": hits, "body": body})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/jwks.json", hits
    finally:
        server.shutdown()
        server.server_close()
