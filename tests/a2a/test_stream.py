"""Streaming through the client: chunking, mid-stream errors, non-SSE answers, early exit."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from sia_tui.core.errors import A2AProtocolError, JsonInputError, TransportError
from sia_tui.core.limits import MAX_STREAM_EVENTS_KEPT
from tests.support.mock_a2a import JSONRPC_V1, REST_V1, chunked, fixture, json_response, sse_bytes

EVENTS = [item["data"] for item in fixture("06_jsonrpc_stream_events.json")]
SSE = {"content-type": "text/event-stream"}


@pytest.mark.parametrize("size", [1, 3, 64, 1000])
async def test_events_split_across_chunks(make_client: Any, size: int) -> None:
    body = sse_bytes(EVENTS, newline="\r")
    client, agent = make_client(
        lambda r: httpx.Response(200, content=chunked(body, size), headers=SSE)
    )
    async with client:
        events = [e async for e in client.stream(JSONRPC_V1, {"a": 1}, purpose="invoke")]
    assert [e.kind for e in events] == ["task", "status", "artifact", "artifact", "status"]
    assert agent.body()["method"] == "SendStreamingMessage"
    assert agent.requests[0].headers["accept"] == "text/event-stream"
    assert client.exchanges[0].response_body == body


async def test_events_after_the_final_one_are_not_read(make_client: Any) -> None:
    extra = {"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "x", "status": {}}}}
    client, _ = make_client(
        lambda r: httpx.Response(200, content=sse_bytes([*EVENTS, extra]), headers=SSE)
    )
    async with client:
        events = [e async for e in client.stream(JSONRPC_V1, {}, purpose="invoke")]
    assert len(events) == 5 and len(client.exchanges[0].events) == 5


async def test_event_error_raises_the_jsonrpc_error(make_client: Any) -> None:
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "agent crashed"}}
    body = sse_bytes(EVENTS[:1]) + sse_bytes([error], event="error")
    client, _ = make_client(lambda r: httpx.Response(200, content=body, headers=SSE))
    kinds = []
    async with client:
        with pytest.raises(A2AProtocolError, match="agent crashed") as caught:
            async for event in client.stream(JSONRPC_V1, {}, purpose="invoke"):
                kinds.append(event.kind)
    assert kinds == ["task"] and caught.value.code == -32603
    assert len(client.exchanges[0].events) == 2
    assert "agent crashed" in (client.exchanges[0].error or "")


async def test_a_jsonrpc_error_instead_of_a_stream(make_client: Any) -> None:
    client, _ = make_client(lambda r: json_response(fixture("10_jsonrpc_no_version_header.json")))
    async with client:
        with pytest.raises(A2AProtocolError, match="-32009"):
            [e async for e in client.stream(JSONRPC_V1, {}, purpose="invoke")]
    assert client.exchanges[0].events == ()


async def test_a_plain_json_answer_is_read_as_one_event(make_client: Any) -> None:
    task = {"id": "t", "status": {"state": "TASK_STATE_COMPLETED"}}
    client, _ = make_client(lambda r: json_response({"task": task}))
    async with client:
        events = [e async for e in client.stream(REST_V1, {}, purpose="invoke")]
    assert [(e.kind, e.final) for e in events] == [("task", True)]


async def test_bad_json_in_an_event_is_located(make_client: Any) -> None:
    body = b'data: {"task": nope}\n\n'
    client, _ = make_client(lambda r: httpx.Response(200, content=body, headers=SSE))
    async with client:
        with pytest.raises(JsonInputError, match="SSE event"):
            [e async for e in client.stream(REST_V1, {}, purpose="invoke")]


async def test_consumer_leaving_early_still_records_the_exchange(make_client: Any) -> None:
    client, _ = make_client(lambda r: httpx.Response(200, content=sse_bytes(EVENTS), headers=SSE))
    async with client:
        stream = client.stream(JSONRPC_V1, {}, purpose="invoke")
        async for _event in stream:
            break
        await stream.aclose()
    assert len(client.exchanges) == 1
    assert client.exchanges[0].events == (json.dumps(EVENTS[0]).encode(),)


async def test_status_update_with_input_required_ends_the_stream(make_client: Any) -> None:
    update = {
        "statusUpdate": {
            "taskId": "t",
            "contextId": "c",
            "status": {"state": "TASK_STATE_INPUT_REQUIRED"},
        }
    }
    client, _ = make_client(lambda r: httpx.Response(200, content=sse_bytes([update]), headers=SSE))
    async with client:
        events = [e async for e in client.stream(REST_V1, {}, purpose="invoke")]
    assert events[0].final and events[0].state == "TASK_STATE_INPUT_REQUIRED"


async def test_a_redirected_stream_is_not_followed(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: httpx.Response(308, headers={"location": "https://evil.example/sse"})
    )
    async with client:
        with pytest.raises(TransportError, match="evil.example/sse.*not followed"):
            [e async for e in client.stream(REST_V1, {}, purpose="invoke")]
    assert len(agent.requests) == 1 and client.exchanges[0].status == 308


async def test_a_flood_of_events_is_kept_bounded_with_the_last_and_counted(
    make_client: Any,
) -> None:
    """3,000 WORKING events before the final one: every event is read, the exchange keeps
    the first ones and the final one (``MAX_STREAM_EVENTS_KEPT``, the bound gRPC streams
    share) and counts the rest."""
    flood = [EVENTS[0], *[EVENTS[1]] * 3000, EVENTS[-1]]
    client, _ = make_client(lambda r: httpx.Response(200, content=sse_bytes(flood), headers=SSE))
    async with client:
        events = [e async for e in client.stream(JSONRPC_V1, {}, purpose="invoke")]
    assert len(events) == len(flood) and events[-1].final
    recorded = client.exchanges[0]
    assert len(recorded.events) == MAX_STREAM_EVENTS_KEPT
    assert recorded.events_not_kept == len(flood) - MAX_STREAM_EVENTS_KEPT
    assert json.loads(recorded.events[-1]) == EVENTS[-1]  # the final event, kept
