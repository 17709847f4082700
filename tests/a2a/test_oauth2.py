"""OAuth2 client credentials: where the token endpoint comes from, and the token's cache."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from sia_tui.core.a2a import oauth2
from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
from sia_tui.core.a2a.recorder import ExchangeRecorder
from sia_tui.core.a2a.security import SchemeKind, SecurityScheme

CARD = "http://agent.test/.well-known/agent-card.json"
SETTINGS = OAuth2Settings("client-1", "secret-0123456789")


def source(
    scheme: SecurityScheme | None, answers: dict[str, Any], seen: list[httpx.Request]
) -> tuple[oauth2.TokenSource, ExchangeRecorder]:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers.get(str(request.url))
        return httpx.Response(200, json=answer) if answer else httpx.Response(404)

    recorder = ExchangeRecorder(
        ClientOptions(), transport=httpx.MockTransport(handler), on_exchange=None
    )
    tokens = oauth2.TokenSource(
        SETTINGS, recorder, scheme=scheme, scopes=("read",), card_location=CARD
    )
    return tokens, recorder


def scheme(**members: Any) -> SecurityScheme:
    return SecurityScheme("m2m", SchemeKind.OAUTH2, **members)


async def test_rfc_8414_metadata_on_the_cards_origin_names_the_endpoint() -> None:
    """oauth2MetadataUrl -> token_endpoint, both on the card's origin: the token is fetched."""
    seen: list[httpx.Request] = []
    meta = "http://agent.test/.well-known/oauth-authorization-server"
    tokens, recorder = source(
        scheme(metadata_url=meta),
        {
            meta: {"token_endpoint": "http://agent.test/oauth/token"},
            "http://agent.test/oauth/token": {"access_token": "tok-aaaa1111", "expires_in": 600},
        },
        seen,
    )
    assert await tokens.token() == "tok-aaaa1111"
    assert [e.purpose for e in recorder.exchanges] == ["oauth2 metadata", "oauth2 token"]
    assert b"tok-aaaa1111" not in recorder.exchanges[1].response_body
    assert await tokens.token() == "tok-aaaa1111" and len(seen) == 2  # cached
    await recorder.aclose()


async def test_metadata_naming_another_host_gets_no_secret() -> None:
    """The metadata is the agent's word too: a token_endpoint elsewhere is refused."""
    seen: list[httpx.Request] = []
    meta = "http://agent.test/.well-known/openid-configuration"
    tokens, recorder = source(None, {meta: {"token_endpoint": "http://idp.evil.test/token"}}, seen)
    assert await tokens.token() is None  # OIDC discovery on the card's origin, then refused
    assert [str(r.url) for r in seen] == [meta]
    assert "idp.evil.test" in tokens.problem and "--oauth2-token-url" in tokens.problem
    await recorder.aclose()


async def test_an_expired_token_is_fetched_again() -> None:
    """A token is reused while fresh and fetched again once it is within its margin of expiry."""
    seen: list[httpx.Request] = []
    url = "http://agent.test/token"
    tokens, recorder = source(
        scheme(token_url=url), {url: {"access_token": "tok-short-01", "expires_in": 0.2}}, seen
    )
    await tokens.token()
    await tokens.token()
    assert len(seen) == 1  # still fresh
    await asyncio.sleep(0.15)  # past its life minus the margin (half of it, for so short a life)
    await tokens.token()
    assert len(seen) == 2
    form = seen[0].content.decode()
    assert form == "grant_type=client_credentials&scope=read"  # the secret is in Basic only
    await recorder.aclose()
