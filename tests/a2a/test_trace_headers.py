"""W3C Trace Context on every call: one trace id per client (run), one span id per
exchange, over JSON-RPC, HTTP+JSON, SSE and gRPC metadata; ``tracestate`` passed through;
none with ``trace=False``; a bare refusal names the header as a possible cause."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from sia_tui.agent.app import AgentApp
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.grpc_server import serving_grpc
from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Task
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import TransportError
from sia_tui.core.needs import use_wording
from sia_tui.core.trace_context import parse_traceparent
from tests.support.agent_wire import describe_request
from tests.support.mock_a2a import BASE, JSONRPC_V1, REST_V1, fixture, json_response, sse_bytes

CARD = fixture("01_agent_card.json")
TASK = {"id": "t-1", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}
EVENTS = [item["data"] for item in fixture("06_jsonrpc_stream_events.json")]


def answer(request: httpx.Request) -> httpx.Response:
    if request.method == "GET":
        return json_response(CARD)
    if request.headers.get("accept") == "text/event-stream":
        return httpx.Response(
            200, content=sse_bytes(EVENTS), headers={"content-type": "text/event-stream"}
        )
    if request.url.path.endswith("message:send"):
        return json_response({"task": TASK})
    return json_response({"jsonrpc": "2.0", "id": 1, "result": {"task": TASK}})


async def test_one_trace_per_run_and_one_span_per_exchange_on_every_http_call(
    make_client: Any,
) -> None:
    """The card, JSON-RPC, HTTP+JSON and an SSE stream: the same trace id, a new span each,
    and the span each exchange records is the one its traceparent carried."""
    client, agent = make_client(answer, tracestate="acme=a1,tenant@sys=x y")
    async with client:
        await client.fetch_card(BASE)
        await client.send(JSONRPC_V1, {"x": 1}, purpose="invoke")
        await client.send(REST_V1, {"x": 1}, purpose="invoke")
        [e async for e in client.stream(JSONRPC_V1, {"a": 1}, purpose="invoke")]
    sent = [parse_traceparent(r.headers["traceparent"]) for r in agent.requests]
    assert len(sent) == 4 and all(each is not None for each in sent)
    assert {each.trace_id for each in sent if each} == {client.trace_id}
    spans = [each.span_id for each in sent if each]
    assert len(set(spans)) == 4
    assert [ex.span_id for ex in client.exchanges] == spans
    assert {r.headers["tracestate"] for r in agent.requests} == {"acme=a1,tenant@sys=x y"}
    assert all(r.headers["traceparent"].endswith("-01") for r in agent.requests)


async def test_two_clients_are_two_traces(make_client: Any) -> None:
    first, _ = make_client(answer)
    second, _ = make_client(answer)
    assert first.trace_id and second.trace_id and first.trace_id != second.trace_id


async def test_no_trace_sends_no_trace_header(make_client: Any) -> None:
    client, agent = make_client(answer, trace=False, tracestate="acme=1")
    async with client:
        await client.fetch_card(BASE)
        await client.send(JSONRPC_V1, {"x": 1}, purpose="invoke")
    assert client.trace_id is None
    for request in agent.requests:
        assert "traceparent" not in request.headers and "tracestate" not in request.headers
    assert [ex.span_id for ex in client.exchanges] == [None, None]


async def test_a_bare_refusal_after_a_trace_header_names_it(make_client: Any) -> None:
    """Some agents refuse headers they do not know: the error says so, and how to stop."""
    client, _ = make_client(lambda r: httpx.Response(400, content=b"bad header"))
    with use_wording({}), pytest.raises(TransportError) as refused:
        async with client:
            await client.send(JSONRPC_V1, {"x": 1}, purpose="invoke")
    assert "traceparent" in str(refused.value)
    assert "turning trace headers off" in str(refused.value)


async def test_no_note_without_a_trace_header(make_client: Any) -> None:
    client, _ = make_client(lambda r: httpx.Response(400, content=b"bad"), trace=False)
    with pytest.raises(TransportError) as refused:
        async with client:
            await client.send(JSONRPC_V1, {"x": 1}, purpose="invoke")
    assert str(refused.value).startswith("HTTP 400") and "traceparent" not in str(refused.value)


async def test_grpc_metadata_carries_the_trace_and_the_agent_logs_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """gRPC: traceparent and tracestate travel as metadata; the reference agent logs the
    trace id and echoes it in the task's metadata."""
    app = AgentApp(AgentConfig(step_delay=0.01))
    caplog.set_level(logging.INFO, logger="sia_tui.agent.trace")
    async with serving_grpc(app, "127.0.0.1", 0) as address:
        made = A2AClient(ClientOptions(tracestate="acme=1"))
        made.bind_card_location("http://127.0.0.1:1/.well-known/agent-card.json")
        async with made:
            task = await made.send(
                Interface(address, "GRPC", "1.0"),
                describe_request("evaluate_resource_condition"),
                purpose="describe_skill",
            )
    exchange = made.exchanges[0]
    pairs = dict(exchange.request_headers)
    parsed = parse_traceparent(pairs["traceparent"])
    assert parsed is not None and parsed.trace_id == made.trace_id
    assert exchange.span_id == parsed.span_id and pairs["tracestate"] == "acme=1"
    assert f"trace_id={made.trace_id} parent_span_id={parsed.span_id}" in caplog.text
    assert isinstance(task, Task) and made.trace_id is not None
    assert made.trace_id.encode() in exchange.response_body  # metadata.traceId
