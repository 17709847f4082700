"""Limits that need real sockets: slow headers, slow body, drip, endless body, live SSE."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import RequestTimeout, ResponseTooLarge
from tests.support.socket_server import serving


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serving() as url:
        yield url


FAST = ClientOptions(
    read_timeout=0.3, connect_timeout=1.0, total_timeout=0.6, stream_idle_timeout=0.3
)


@pytest.mark.parametrize("route", ["/slow-headers", "/slow-body", "/drip"])
async def test_slow_answers_time_out_and_are_recorded(base: str, route: str) -> None:
    async with A2AClient(FAST) as client:
        with pytest.raises(RequestTimeout):
            await client.fetch_card(base + route + ".json")
    exchange = client.exchanges[0]
    assert exchange.error is not None and "timed out" in exchange.error


async def test_endless_body_is_cut_at_the_limit(base: str) -> None:
    async with A2AClient(ClientOptions(max_response_bytes=100_000)) as client:
        with pytest.raises(ResponseTooLarge):
            await client.fetch_card(base + "/endless.json")
    exchange = client.exchanges[0]
    assert exchange.truncated and len(exchange.response_body) == 100_000


async def test_live_stream_ends_at_the_final_event_without_waiting(base: str) -> None:
    async with A2AClient(FAST) as client:
        events = [
            e
            async for e in client.stream(
                Interface(f"{base}/live", "HTTP+JSON", "1.0"), {}, purpose="invoke"
            )
        ]
    # The server stalls after the final event; the idle timeout would fire if we waited.
    assert [e.kind for e in events] == ["task", "status"] and events[-1].final
    assert len(client.exchanges) == 1 and client.exchanges[0].error is None
    assert len(client.exchanges[0].events) == 2


async def test_silent_stream_times_out_keeping_what_arrived(base: str) -> None:
    seen = []
    async with A2AClient(FAST) as client:
        with pytest.raises(RequestTimeout):
            async for event in client.stream(
                Interface(f"{base}/stall", "HTTP+JSON", "1.0"), {}, purpose="invoke"
            ):
                seen.append(event.kind)
    assert seen == ["task"]
    assert len(client.exchanges[0].events) == 1 and client.exchanges[0].error
