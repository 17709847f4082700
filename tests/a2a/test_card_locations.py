"""Card locations a user mistypes get a clear error, never a traceback and never a request."""

from __future__ import annotations

import httpx
import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import TransportError


@pytest.mark.parametrize(
    ("location", "message"),
    [
        ("http://", "no host"),
        ("ftp://x/card.json", "unsupported URL scheme 'ftp'"),
        ("http://[::1", "not a valid URL"),
    ],
)
async def test_bad_card_locations_are_named(location: str, message: str) -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(500)

    transport = httpx.MockTransport(answer)
    async with A2AClient(ClientOptions(), transport=transport) as client:
        with pytest.raises(TransportError, match=message):
            await client.fetch_card(location)
    assert sent == []
