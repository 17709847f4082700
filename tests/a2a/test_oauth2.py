"""OAuth2 client credentials: where the token endpoint comes from, and the token's cache."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from sia_tui.core.a2a.auth import oauth2
from sia_tui.core.a2a.http.recorder import ExchangeRecorder
from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
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


class EndlessTokenAnswer(httpx.AsyncByteStream):
    """A token answer of 64 MiB whose access_token never ends; counts what was pulled."""

    def __init__(self) -> None:
        self.sent = 0

    async def __aiter__(self) -> Any:
        chunk = b'{"access_token": "' + b"t" * (64 * 1024)
        for _ in range(1024):
            self.sent += len(chunk)
            yield chunk
            chunk = b"t" * (64 * 1024)


async def test_an_oversized_token_answer_is_refused_while_read_and_never_kept() -> None:
    """64 MiB from the token endpoint: reading stops past 256 KiB, the token step says why,
    and the recorded answer holds no byte of the (cut) token."""
    answer = EndlessTokenAnswer()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=answer, headers={"content-type": "application/json"})

    recorder = ExchangeRecorder(
        ClientOptions(), transport=httpx.MockTransport(handler), on_exchange=None
    )
    tokens = oauth2.TokenSource(
        OAuth2Settings("client-1", "secret-0123456789", token_url="http://idp.test/token"),
        recorder,
        scheme=None,
        scopes=(),
        card_location=CARD,
    )
    assert await tokens.token() is None
    assert f"larger than {oauth2.MAX_TOKEN_ANSWER_BYTES} bytes" in tokens.problem
    assert answer.sent < 2 * oauth2.MAX_TOKEN_ANSWER_BYTES  # not the 8 MiB response limit
    [exchange] = recorder.exchanges
    assert exchange.error_kind == "response_too_large"
    assert b"tttt" not in exchange.response_body
    assert b"\xc2\xabredacted:access_token\xc2\xbb" in exchange.response_body
    await recorder.aclose()


def test_token_members_are_scrubbed_to_their_own_end() -> None:
    """Escaped quotes stay inside the value; other members are kept as they were."""
    body = b'{"access_token" : "a\\"b\\\\", "token_type": "x", "id_token":"c", "n": "\\\\"}'
    scrubbed = oauth2.scrub_token_members(body)
    mark = "«redacted:access_token»".encode()
    assert scrubbed == (
        b'{"access_token" : "'
        + mark
        + b'", "token_type": "x", "id_token":"'
        + mark
        + b'", "n": "\\\\"}'
    )
