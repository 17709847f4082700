"""Limits of one exchange, at the client: total_timeout covers headers and body together
(a slow body cannot outlast it), and stacked encodings decode within the size limit."""

from __future__ import annotations

import time

import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import RequestTimeout, ResponseTooLarge
from tests.hostile.measure import serving

TOTAL = 1.5
#: Slack for scheduling; without the fix the exchange takes 1.2 s of headers + TOTAL.
SLACK = 0.8


async def test_total_timeout_bounds_headers_and_body_together() -> None:
    options = ClientOptions(read_timeout=1.0, total_timeout=TOTAL)
    with serving("slow-headers-then-body") as server:
        async with A2AClient(options) as client:
            started = time.perf_counter()
            with pytest.raises(RequestTimeout, match=r"longer than 1.5 s \(total_timeout\)"):
                await client.fetch_card(server.url + "/card.json")
            elapsed = time.perf_counter() - started
    assert elapsed < TOTAL + SLACK
    exchange = client.exchanges[0]
    assert exchange.status == 200 and "total_timeout" in (exchange.error or "")


async def test_a_two_layer_bomb_stops_at_the_size_limit_with_what_was_decoded() -> None:
    options = ClientOptions(max_response_bytes=1_000_000)
    with serving("gzip-gzip") as server:
        async with A2AClient(options) as client:
            with pytest.raises(ResponseTooLarge, match="gzip-decoded"):
                await client.fetch_card(server.url + "/card.json")
    exchange = client.exchanges[0]
    assert exchange.truncated and exchange.response_body == bytes(len(exchange.response_body))
