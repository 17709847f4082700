"""The reference agent's OAuth2-protected mode (``serve-demo --oauth2``).

Its own token endpoint on the card's origin (client credentials, one fixed demo client),
a card that declares the scheme and requires it, and a 401 for any A2A call without a
valid token. The card stays public (A2A 1.0 section 7.3: credentials are discovered from it).
"""

from __future__ import annotations

import base64
import secrets
import time
from typing import Any
from urllib.parse import parse_qs, unquote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

#: The demo client (printed at start): not a secret of anything real.
DEMO_CLIENT_ID = "sia-demo-client"
DEMO_CLIENT_SECRET = "sia-demo-secret-0a1b2c3d"
#: The scheme's name in the card, the scope it requires, and where tokens are issued.
SCHEME_NAME = "demo-oauth2"
SCOPE = "a2a.invoke"
TOKEN_PATH = "/oauth2/token"
#: Seconds a token lives (short, so a long session sees a renewal).
TOKEN_LIFETIME = 300
#: Tokens kept at most; the oldest are dropped (a client looping on the endpoint is bounded).
MAX_TOKENS = 1000


def card_security(base: str) -> dict[str, Any]:
    """The card members that declare the scheme and require it (A2A 1.0 field names); the
    token endpoint is on the card's own origin (``base``)."""
    return {
        "securitySchemes": {
            SCHEME_NAME: {
                "oauth2SecurityScheme": {
                    "description": "OAuth2 client credentials (the reference agent's demo client)",
                    "flows": {
                        "clientCredentials": {
                            "tokenUrl": f"{base}{TOKEN_PATH}",
                            "scopes": {SCOPE: "invoke the agent's skills"},
                        }
                    },
                }
            }
        },
        "securityRequirements": [{"schemes": {SCHEME_NAME: {"list": [SCOPE]}}}],
    }


def extended_card(card: dict[str, Any]) -> dict[str, Any]:
    """What GetExtendedAgentCard answers an authenticated caller: the card, said so."""
    return {**card, "description": f"{card.get('description', '')} (authenticated view)"}


def new_token() -> str:
    """A fresh random token (a function, so a test can issue a known canary)."""
    return secrets.token_urlsafe(24)


class TokenIssuer:
    """Issues and checks bearer tokens for the demo client."""

    def __init__(self) -> None:
        self._tokens: dict[str, float] = {}
        #: Token requests answered (tests count them).
        self.requests = 0

    def valid(self, token: str) -> bool:
        """True for a token this issuer gave that has not expired."""
        expires = self._tokens.get(token)
        return expires is not None and time.monotonic() < expires

    async def token(self, request: Request) -> Response:
        """POST /oauth2/token: client_secret_basic or client_secret_post."""
        self.requests += 1
        body = (await request.body())[:4096].decode("utf-8", "replace")
        form = {k: v[0] for k, v in parse_qs(body).items()}
        client_id, secret = form.get("client_id"), form.get("client_secret")
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "basic":
            try:
                pair = base64.b64decode(value, validate=True).decode("utf-8")
            except ValueError:
                pair = ""
            user, _, password = pair.partition(":")
            client_id, secret = unquote(user), unquote(password)
        if form.get("grant_type") != "client_credentials":
            return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
        if client_id != DEMO_CLIENT_ID or secret != DEMO_CLIENT_SECRET:
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        if len(self._tokens) >= MAX_TOKENS:
            self._tokens.pop(next(iter(self._tokens)))
        token = new_token()
        self._tokens[token] = time.monotonic() + TOKEN_LIFETIME
        return JSONResponse(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME,
                "scope": SCOPE,
            },
            headers={"Cache-Control": "no-store"},
        )


class RequireToken:
    """ASGI middleware: every A2A route answers 401 without a valid bearer token."""

    def __init__(self, app: ASGIApp, issuer: TokenIssuer) -> None:
        self.app = app
        self.issuer = issuer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/a2a/"):
            headers = dict(scope.get("headers") or [])
            scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
            if scheme.lower() != "bearer" or not self.issuer.valid(token.strip()):
                response = JSONResponse(
                    {"error": "invalid_token"},
                    status_code=401,
                    headers={"WWW-Authenticate": f'Bearer scope="{SCOPE}"'},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
