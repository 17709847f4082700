"""A2AClient on a MockTransport: headers, credentials, card retrieval, limits, errors, polling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.views import Interface
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.errors import (
    A2AProtocolError,
    JsonInputError,
    RequestTimeout,
    ResponseTooLarge,
    TransportError,
)
from sia_tui.core.exchange import Exchange
from tests.support.mock_a2a import (
    BASE,
    JSONRPC_V03,
    JSONRPC_V1,
    REST_V03,
    REST_V1,
    fixture,
    json_response,
)

CARD = fixture("01_agent_card.json")
TASK = {"id": "t-1", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}


def rpc(result: Any) -> httpx.Response:
    return json_response({"jsonrpc": "2.0", "id": 1, "result": result})


def echo_rpc(request: httpx.Request) -> httpx.Response:
    """A JSON-RPC answer carrying the request's own id."""
    return json_response(
        {"jsonrpc": "2.0", "id": json.loads(request.content)["id"], "result": {"task": TASK}}
    )


async def test_version_and_extension_headers_on_every_request(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: json_response(CARD) if r.method == "GET" else rpc({"task": TASK})
    )
    async with client:
        await client.fetch_card(BASE)
        await client.send(JSONRPC_V1, {"x": 1}, purpose="invoke")
    for request in agent.requests:
        assert request.headers["A2A-Version"] == "1.0"
        assert request.headers["A2A-Extensions"] == EXTENSION_URI
        assert "X-A2A-Extensions" not in request.headers
    assert agent.requests[1].headers["content-type"] == "application/json"


@pytest.mark.parametrize("iface", [JSONRPC_V03, REST_V03])
async def test_v03_sends_version_03_and_both_extension_headers(
    make_client: Any, iface: Interface
) -> None:
    client, agent = make_client(
        lambda r: json_response(
            {"jsonrpc": "2.0", "id": 1, "result": {**TASK, "kind": "task"}}
            if iface is JSONRPC_V03
            else {"task": TASK}
        )
    )
    async with client:
        await client.send(iface, {"x": 1}, purpose="invoke")
    headers = agent.requests[0].headers
    assert headers["A2A-Version"] == "0.3"
    assert headers["A2A-Extensions"] == headers["X-A2A-Extensions"] == EXTENSION_URI


async def test_extensions_off_sends_no_extension_header(make_client: Any) -> None:
    client, agent = make_client(lambda r: rpc({"task": TASK}), extensions=False)
    async with client:
        await client.send(JSONRPC_V03, {}, purpose="invoke")
    assert "A2A-Extensions" not in agent.requests[0].headers
    assert "X-A2A-Extensions" not in agent.requests[0].headers


async def test_bearer_and_user_headers_go_to_the_card_origin(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: json_response(CARD) if r.method == "GET" else rpc({"task": TASK}),
        bearer="s3cret",
        headers=(("X-Team", "ops"),),
    )
    async with client:
        await client.fetch_card(BASE + "/")
        await client.send(JSONRPC_V1, {}, purpose="invoke")
    for request in agent.requests:
        assert request.headers["Authorization"] == "Bearer s3cret"
        assert request.headers["X-Team"] == "ops"
    assert client.warnings == []


@pytest.mark.parametrize("allow", [False, True])
async def test_credentials_withheld_from_another_origin_unless_allowed(
    make_client: Any, allow: bool
) -> None:
    elsewhere = Interface("http://agent.test:8080/rpc", "JSONRPC", "1.0")  # same host, new port
    client, agent = make_client(
        lambda r: json_response(CARD) if r.method == "GET" else echo_rpc(r),
        bearer="s3cret",
        headers=(("X-Team", "ops"),),
        allow_cross_origin=allow,
    )
    async with client:
        await client.fetch_card(BASE)
        await client.send(elsewhere, {}, purpose="invoke")
        await client.send(elsewhere, {}, purpose="invoke")
    call = agent.requests[1]
    assert ("Authorization" in call.headers) is allow
    assert ("X-Team" in call.headers) is allow
    assert call.headers["A2A-Version"] == "1.0"  # protocol headers are never withheld
    assert len(client.warnings) == 1 and "agent.test:8080" in client.warnings[0]
    assert ("withheld" in client.warnings[0]) is not allow


async def test_tenant_is_copied_into_params_and_rest_path(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: rpc({"task": TASK}) if r.url.path.endswith("rpc") else json_response(TASK)
    )
    async with client:
        await client.get_task(Interface(f"{BASE}/rpc", "JSONRPC", "1.0", "acme"), "t-1")
        await client.get_task(Interface(f"{BASE}/rest/", "HTTP+JSON", "1.0", "acme"), "a/b")
    assert agent.body(0)["params"] == {"id": "t-1", "tenant": "acme"}
    assert agent.requests[1].url.raw_path == b"/rest/acme/tasks/a%2Fb"


async def test_card_falls_back_to_agent_json_on_404(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: json_response(CARD) if r.url.path.endswith("/agent.json") else httpx.Response(404)
    )
    async with client:
        fetched = await client.fetch_card(BASE + "/base")
    assert [r.url.path for r in agent.requests] == [
        "/base/.well-known/agent-card.json",
        "/base/.well-known/agent.json",
    ]
    assert fetched.url == BASE + "/base/.well-known/agent.json"
    assert fetched.exchange.seq == 2 and client.exchanges[0].status == 404
    assert fetched.card.name == "SDK Peer Agent"


async def test_card_url_ending_in_json_is_fetched_as_given(make_client: Any) -> None:
    client, agent = make_client(lambda r: json_response(CARD))
    async with client:
        fetched = await client.fetch_card(BASE + "/cards/mine.json")
    assert [str(r.url) for r in agent.requests] == [BASE + "/cards/mine.json"]
    assert fetched.exchange.response_body == json.dumps(CARD).encode()


async def test_card_fetch_error_status_is_reported(make_client: Any) -> None:
    client, _ = make_client(lambda r: httpx.Response(500, content=b"<html>oops</html>"))
    async with client:
        with pytest.raises(TransportError, match="HTTP 500"):
            await client.fetch_card(BASE)
    assert len(client.exchanges) == 1


async def test_local_card_file_is_recorded_as_a_file_exchange(tmp_path: Path) -> None:
    path = tmp_path / "card.json"
    path.write_bytes(json.dumps(CARD).encode())
    seen: list[Exchange] = []
    async with A2AClient(ClientOptions(), on_exchange=seen.append) as client:
        fetched = await client.fetch_card(str(path))
    assert fetched.card.card_dialect == "hybrid"
    assert seen == client.exchanges and seen[0].method == "FILE"
    assert seen[0].response_body == path.read_bytes()


async def test_local_card_file_size_limit_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2000 + b"{}")
    async with A2AClient(ClientOptions(max_response_bytes=1000)) as client:
        with pytest.raises(ResponseTooLarge):
            await client.fetch_card(str(path))
        with pytest.raises(TransportError, match="cannot read"):
            await client.fetch_card(str(tmp_path / "missing.json"))
    assert client.exchanges[0].truncated and len(client.exchanges[0].response_body) == 1000
    assert client.exchanges[1].error is not None


async def test_redirect_is_not_followed(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: httpx.Response(302, headers={"location": "https://evil.example/steal"})
    )
    async with client:
        with pytest.raises(TransportError, match="evil.example/steal.*not followed"):
            await client.send(REST_V1, {}, purpose="invoke")
    assert len(agent.requests) == 1  # RULES SR7: the named URL is never requested
    assert client.exchanges[0].status == 302


async def test_same_origin_redirect_followed_only_when_enabled(make_client: Any) -> None:
    def agent(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/old.json":
            return httpx.Response(307, headers={"location": "/new.json"})
        if request.url.path == "/new.json":
            return json_response(CARD)
        return httpx.Response(301, headers={"location": "https://elsewhere.example/x.json"})

    client, seen = make_client(agent, follow_redirects=True)
    async with client:
        fetched = await client.fetch_card(BASE + "/old.json")
        with pytest.raises(TransportError, match="not followed"):
            await client.fetch_card(BASE + "/cross.json")
    assert fetched.url == BASE + "/new.json"
    assert [r.url.path for r in seen.requests] == ["/old.json", "/new.json", "/cross.json"]


async def test_oversized_body_is_aborted_and_recorded_truncated(make_client: Any) -> None:
    client, _ = make_client(
        lambda r: httpx.Response(200, content=b"[" + b"1," * 5000 + b"1]"), max_response_bytes=1000
    )
    async with client:
        with pytest.raises(ResponseTooLarge, match="1000 bytes"):
            await client.get_task(REST_V1, "t")
    exchange = client.exchanges[0]
    assert exchange.truncated and len(exchange.response_body) == 1000
    assert exchange.error is not None and "1000" in exchange.error


async def test_deeply_nested_json_is_a_clear_error(make_client: Any) -> None:
    client, _ = make_client(
        lambda r: httpx.Response(200, content=b"[" * 5000 + b"]" * 5000), max_depth=50
    )
    async with client:
        with pytest.raises(JsonInputError, match="50"):
            await client.get_task(REST_V1, "t")


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (
            json_response(
                {
                    "type": "about:blank",
                    "title": "Version not supported",
                    "status": 400,
                    "detail": "use 1.0",
                },
                400,
                content_type="application/problem+json",
            ),
            "Version not supported: use 1.0",
        ),
        (httpx.Response(502, content=b"bad gateway"), "HTTP 502"),
        (
            json_response(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "error": {"code": -32601, "message": "Method not found"},
                },
                404,
            ),
            "-32601",
        ),
    ],
)
async def test_http_errors_read_as_a2a_errors_when_possible(
    make_client: Any, response: httpx.Response, message: str
) -> None:
    client, _ = make_client(lambda r: response)
    async with client:
        with pytest.raises((A2AProtocolError, TransportError), match=message):
            await client.send(JSONRPC_V1, {}, purpose="invoke")


async def test_a_result_that_is_not_a_task_is_a_protocol_error(make_client: Any) -> None:
    client, _ = make_client(lambda r: rpc({"weird": True}))
    async with client:
        with pytest.raises(A2AProtocolError, match="neither a Task nor a Message"):
            await client.send(JSONRPC_V1, {}, purpose="invoke")


async def test_send_can_answer_with_a_message(make_client: Any) -> None:
    message = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}
    client, _ = make_client(lambda r: rpc({"message": message}))
    async with client:
        result = await client.send(JSONRPC_V1, {}, purpose="invoke")
    assert result.raw == message


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (httpx.ConnectError("refused"), TransportError),
        (httpx.ReadTimeout("slow"), RequestTimeout),
        (httpx.ConnectTimeout("slow"), RequestTimeout),
    ],
)
async def test_transport_failures_are_recorded_then_raised(
    make_client: Any, error: Exception, expected: type[Exception]
) -> None:
    def fail(request: httpx.Request) -> httpx.Response:
        raise error

    client, _ = make_client(fail)
    async with client:
        with pytest.raises(expected):
            await client.get_task(REST_V1, "t")
    assert client.exchanges[0].status is None and client.exchanges[0].error


async def test_a_custom_binding_is_never_called(make_client: Any) -> None:
    """Shown, not called (WIRE.md); gRPC has its own binding (tests/grpc)."""
    client, agent = make_client(lambda r: rpc({}))
    async with client:
        with pytest.raises(A2AProtocolError, match="urn:custom"):
            await client.send(Interface("https://a/x", "urn:custom", "1.0"), {}, purpose="x")
    assert agent.requests == [] and client.exchanges == []


async def test_poll_stops_at_terminal_state(make_client: Any) -> None:
    states = iter(["TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"])
    client, agent = make_client(
        lambda r: json_response({**TASK, "status": {"state": next(states)}}), poll_interval=0
    )
    async with client:
        task = await client.poll(REST_V1, "t-1")
    assert task.state == "TASK_STATE_INPUT_REQUIRED" and len(agent.requests) == 3
    assert {e.purpose for e in client.exchanges} == {"poll"}


async def test_poll_is_bounded_by_poll_max(make_client: Any) -> None:
    client, agent = make_client(
        lambda r: json_response({**TASK, "status": {"state": "working"}}),
        poll_interval=0,
        poll_max=4,
    )
    async with client:
        task = await client.poll(REST_V1, "t-1")
    assert task.state == "TASK_STATE_WORKING" and len(agent.requests) == 4


async def test_exchange_keeps_raw_request_bytes_and_headers(make_client: Any) -> None:
    client, agent = make_client(lambda r: rpc({"task": TASK}), bearer="tok")
    async with client:
        await client.send(JSONRPC_V1, {"k": "v"}, purpose="describe_skill")
    exchange = client.exchanges[0]
    assert exchange.request_body == agent.requests[0].content
    assert exchange.purpose == "describe_skill" and exchange.method == "POST"
    assert exchange.header("A2A-Version", response=False) == "1.0"
    assert exchange.header("content-type") == "application/json"


async def test_mismatched_jsonrpc_id_is_read_but_warned(make_client: Any) -> None:
    client, _ = make_client(
        lambda r: json_response({"jsonrpc": "2.0", "id": 99, "result": {"task": TASK}})
    )
    async with client:
        task = await client.send(JSONRPC_V1, {}, purpose="invoke")
    assert task.raw == TASK
    assert client.warnings == ["JSON-RPC response id 99 does not match request id 1 (exchange 1)"]
