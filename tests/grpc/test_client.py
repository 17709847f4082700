"""The gRPC binding of A2AClient against the reference agent's gRPC server: the five calls,
what each exchange records, metadata and credentials, TLS without a downgrade, limits."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from sia_tui.agent.app import AgentApp
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import Fault
from sia_tui.agent.grpc_server import serving_grpc
from sia_tui.core import limits
from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Task
from sia_tui.core.a2a.views import Interface
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.errors import A2AProtocolError, RequestTimeout, ResponseTooLarge, TransportError
from sia_tui.core.exchange import Exchange
from tests.support.agent_wire import describe_request, invocation

TLS = Path(__file__).parents[1] / "fixtures" / "tls"
CERT, KEY = TLS / "localhost-cert.pem", TLS / "localhost-key.pem"
HTTP_CARD = "http://127.0.0.1:1/.well-known/agent-card.json"
HTTPS_CARD = "https://127.0.0.1:1/.well-known/agent-card.json"
SKILL = "evaluate_resource_condition"


def _server_tls() -> grpc.ServerCredentials:
    return grpc.ssl_server_credentials([(KEY.read_bytes(), CERT.read_bytes())])


@pytest.fixture
async def agent() -> AsyncIterator[tuple[AgentApp, Interface]]:
    """The reference agent's gRPC server on this test's loop, plaintext."""
    app = AgentApp(AgentConfig(step_delay=0.05, slow_seconds=2.0))
    async with serving_grpc(app, "127.0.0.1", 0) as address:
        yield app, Interface(address, "GRPC", "1.0")


def client(card: str = HTTP_CARD, **options: object) -> A2AClient:
    made = A2AClient(ClientOptions(**options))  # type: ignore[arg-type]
    made.bind_card_location(card)
    return made


async def test_send_records_the_call_as_protojson_with_its_metadata_status_and_sizes(
    agent: tuple[AgentApp, Interface],
) -> None:
    """RULES ADV5: the extension is activated in metadata, and the agent echoes it."""
    _, iface = agent
    async with client() as c:
        task = await c.send(iface, describe_request(SKILL), purpose="describe_skill")
    assert isinstance(task, Task) and task.state == "TASK_STATE_COMPLETED"
    (ex,) = c.exchanges
    assert (ex.method, ex.url) == ("GRPC", f"grpc://{iface.url}/lf.a2a.v1.A2AService/SendMessage")
    assert ("a2a-version", "1.0") in ex.request_headers
    assert ("a2a-extensions", EXTENSION_URI) in ex.request_headers
    assert ex.header("a2a-extensions") == EXTENSION_URI
    assert (ex.status, ex.status_text, ex.header("grpc-status")) == (0, "gRPC OK (0)", "0")
    sent = json.loads(ex.request_body)
    assert sent["message"]["parts"][0]["data"] == describe_request(SKILL)
    answer = json.loads(ex.response_body)
    assert answer["task"]["artifacts"][0]["name"] == "describe_skill"
    request_size, response_size = ex.message_sizes
    assert 0 < request_size < len(ex.request_body) + 64 and response_size > 1000


async def test_numbers_in_the_answer_are_shown_as_the_doubles_they_became(
    agent: tuple[AgentApp, Interface],
) -> None:
    """The document's integer keywords (minLength...) arrive as 80.0-style doubles: the
    exchange shows what the binding did to the data."""
    _, iface = agent
    async with client() as c:
        await c.send(iface, describe_request(SKILL), purpose="describe_skill")
    assert b'"minLength":1.0' in c.exchanges[0].response_body


async def test_get_cancel_and_an_unknown_task_read_as_the_a2a_errors_they_are(
    agent: tuple[AgentApp, Interface],
) -> None:
    app, iface = agent
    async with client() as c:
        with pytest.raises(A2AProtocolError, match="TASK_NOT_FOUND: TaskNotFoundError") as found:
            await c.get_task(iface, "no-such-task")
        task = await c.send(iface, describe_request(SKILL), purpose="describe_skill")
        assert isinstance(task, Task)
        assert (await c.get_task(iface, task.id)).state == "TASK_STATE_COMPLETED"
        with pytest.raises(A2AProtocolError, match="TASK_NOT_CANCELABLE") as refused:
            await c.cancel(iface, task.id)
    assert found.value.code == "TASK_NOT_FOUND" and refused.value.code == "TASK_NOT_CANCELABLE"
    failed = c.exchanges[0]
    assert (failed.status, failed.status_text) == (5, "gRPC NOT_FOUND (5)")
    status = json.loads(failed.response_body)
    assert status["details"][0]["reason"] == "TASK_NOT_FOUND"
    assert status["details"][0]["domain"] == "a2a-protocol.org"
    assert failed.header("grpc-status-details-bin", response=True) is not None


async def test_a_stream_records_each_message_then_the_status(
    agent: tuple[AgentApp, Interface],
) -> None:
    _, iface = agent
    async with client() as c:
        events = [e async for e in c.stream(iface, describe_request(SKILL), purpose="describe")]
    assert events[0].kind == "task" and events[-1].final
    (ex,) = c.exchanges
    assert ex.url.endswith("/SendStreamingMessage") and ex.status == 0
    assert len(ex.events) == len(events) and len(ex.message_sizes) == 1 + len(events)
    assert json.loads(ex.events[-1])["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"


async def test_subscribe_follows_a_running_task_to_its_end(
    agent: tuple[AgentApp, Interface],
) -> None:
    app, iface = agent
    digest = app.service.documents["check_link_capacity"].interface_digest
    request = invocation("check_link_capacity", digest, {"link_id": "link-7", "required_mbps": 400})
    async with client() as c:
        task = await c.send(iface, request, purpose="invoke", return_immediately=True)
        assert isinstance(task, Task) and not task.terminal
        events = [e async for e in c.subscribe(iface, task.id)]
    assert events[0].kind == "task" and events[0].task is not None
    assert events[-1].final and events[-1].state == "TASK_STATE_COMPLETED"
    assert c.exchanges[-1].url.endswith("/SubscribeToTask")


async def test_a_running_cancellable_task_is_cancelled(
    agent: tuple[AgentApp, Interface],
) -> None:
    app, iface = agent
    digest = app.service.documents["check_link_capacity"].interface_digest
    request = invocation("check_link_capacity", digest, {"link_id": "link-7", "required_mbps": 400})
    async with client() as c:
        task = await c.send(iface, request, purpose="invoke", return_immediately=True)
        assert isinstance(task, Task) and not task.terminal
        cancelled = await c.cancel(iface, task.id)
    assert cancelled.state == "TASK_STATE_CANCELED"
    assert c.exchanges[-1].url.endswith("/CancelTask") and c.exchanges[-1].status == 0


async def test_credentials_go_only_to_the_card_origin(agent: tuple[AgentApp, Interface]) -> None:
    """RULES SR7: the gRPC port is another origin than the card's; its metadata carries no
    bearer unless cross-origin credentials are allowed."""
    _, iface = agent
    secret: dict[str, object] = {"bearer": "tok-1234", "headers": (("X-Api-Key", "k-5678"),)}
    async with client(HTTP_CARD, **secret) as withheld:
        with pytest.raises(A2AProtocolError):
            await withheld.get_task(iface, "t")
    async with client(HTTP_CARD, **secret, allow_cross_origin=True) as allowed:
        with pytest.raises(A2AProtocolError):
            await allowed.get_task(iface, "t")
    assert withheld.exchanges[0].header("authorization", response=False) is None
    assert any("withheld" in w for w in withheld.warnings)
    sent = allowed.exchanges[0]
    assert sent.header("authorization", response=False) == "Bearer tok-1234"
    assert sent.header("x-api-key", response=False) == "k-5678"


async def test_a_header_grpc_cannot_carry_is_refused_before_anything_is_sent(
    agent: tuple[AgentApp, Interface],
) -> None:
    _, iface = agent
    async with client(headers=(("X-Name", "é"),), allow_cross_origin=True) as c:
        with pytest.raises(TransportError, match="not printable ASCII"):
            await c.get_task(iface, "t")
    assert c.exchanges == []


@pytest.mark.usefixtures("cli_wording")
async def test_the_read_timeout_bounds_a_slow_call() -> None:
    app = AgentApp(AgentConfig(fault=Fault.SLOW, slow_seconds=3.0))
    async with serving_grpc(app, "127.0.0.1", 0) as address, client(read_timeout=0.3) as c:
        with pytest.raises(RequestTimeout, match="--timeout"):
            await c.send(Interface(address, "GRPC", "1.0"), describe_request(SKILL), purpose="d")
        app.stopping.set()
    assert c.exchanges[0].status is None and "timed out" in (c.exchanges[0].error or "")


@pytest.mark.usefixtures("cli_wording")
async def test_an_answer_over_the_size_limit_is_aborted(agent: tuple[AgentApp, Interface]) -> None:
    _, iface = agent
    async with client(max_response_bytes=2000) as c:
        with pytest.raises(ResponseTooLarge, match="--max-response-bytes"):
            await c.send(iface, describe_request(SKILL), purpose="describe_skill")
    assert c.exchanges[0].truncated


async def test_a_cancelled_call_is_recorded_as_cancelled() -> None:
    app = AgentApp(AgentConfig(fault=Fault.SLOW, slow_seconds=3.0))
    async with serving_grpc(app, "127.0.0.1", 0) as address, client() as c:
        call = asyncio.ensure_future(
            c.send(Interface(address, "GRPC", "1.0"), describe_request(SKILL), purpose="d")
        )
        await asyncio.sleep(0.3)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        app.stopping.set()
    assert c.exchanges[0].error == "cancelled before the exchange ended"


async def test_nothing_listening_is_a_refused_connection() -> None:
    async with serving_grpc(AgentApp(AgentConfig()), "127.0.0.1", 0) as address:
        pass  # the port is free again
    async with client() as c:
        with pytest.raises(TransportError, match="connection refused"):
            await c.get_task(Interface(address, "GRPC", "1.0"), "t")


# -- TLS: never a silent downgrade -------------------------------------------------------------


@pytest.fixture
async def tls_address() -> AsyncIterator[str]:
    async with serving_grpc(AgentApp(AgentConfig()), "127.0.0.1", 0, tls=_server_tls()) as address:
        yield address


async def _describe(c: A2AClient, address: str) -> Task | object:
    return await c.send(Interface(address, "GRPC", "1.0"), describe_request(SKILL), purpose="d")


async def test_tls_with_the_given_ca_bundle(tls_address: str) -> None:
    """A card read over https means TLS for a bare host:port; --cacert trusts the server."""
    async with client(HTTPS_CARD, verify=str(CERT)) as c:
        await _describe(c, tls_address)
    assert c.exchanges[0].url.startswith("grpcs://") and c.exchanges[0].status == 0


async def test_insecure_trusts_the_presented_self_signed_certificate(tls_address: str) -> None:
    async with client(HTTPS_CARD, verify=False) as c:
        await _describe(c, tls_address)
    assert c.exchanges[0].status == 0


async def test_an_unverified_certificate_fails_and_is_not_retried_in_plaintext(
    tls_address: str,
) -> None:
    async with client(HTTPS_CARD) as c:
        with pytest.raises(TransportError, match="TLS handshake failed") as failed:
            await _describe(c, tls_address)
    assert "not retried in plaintext" in str(failed.value)
    assert [ex.url.split("://")[0] for ex in c.exchanges] == ["grpcs"]


async def test_tls_asked_of_a_plaintext_server_fails_without_a_downgrade(
    agent: tuple[AgentApp, Interface],
) -> None:
    """--grpc-tls insists: the plaintext agent is not spoken to in plaintext instead."""
    _, iface = agent
    async with client(grpc_security="tls", verify=str(CERT)) as c:
        with pytest.raises(TransportError):
            await _describe(c, iface.url)
    assert [ex.url.split("://")[0] for ex in c.exchanges] == ["grpcs"]


@pytest.mark.usefixtures("cli_wording")
async def test_plaintext_over_an_http_interface_url_of_an_https_card_is_warned(
    agent: tuple[AgentApp, Interface],
) -> None:
    """The card came over TLS but its interface URL says http://: allowed (the card says
    so), and said once."""
    _, iface = agent
    async with client(HTTPS_CARD) as c:
        await _describe(c, f"http://{iface.url}")
        await _describe(c, f"http://{iface.url}")
    assert [w for w in c.warnings if "without TLS" in w] == [
        f"gRPC to {iface.url} without TLS: the interface URL says http://, though the card "
        "came over https (--grpc-tls insists on TLS)"
    ]


def test_status_text_of_a_recorded_exchange() -> None:
    grpc_ex = Exchange(1, "p", "GRPC", "grpc://h:1/lf.a2a.v1.A2AService/GetTask", (), b"", 16)
    http_ex = Exchange(2, "p", "POST", "http://h/rpc", (), b"", 401)
    assert (grpc_ex.status_text, grpc_ex.http_status) == ("gRPC UNAUTHENTICATED (16)", 401)
    assert (http_ex.status_text, http_ex.http_status) == ("HTTP 401", 401)


def _varint(number: int) -> bytes:
    out = b""
    while True:
        low, number = number & 0x7F, number >> 7
        out += bytes([low | 0x80]) if number else bytes([low])
        if not number:
            return out


def _nested_answer(depth: int) -> bytes:
    """A SendMessageResponse whose message's data part nests ``depth`` lists (by hand: no
    protobuf library builds one that deep)."""
    value = b"\x11" + b"\x00" * 8  # Value.number_value = 0.0
    for _ in range(depth):
        listed = b"\x0a" + _varint(len(value)) + value  # ListValue.values
        value = b"\x32" + _varint(len(listed)) + listed  # Value.list_value
    part = b"\x22" + _varint(len(value)) + value  # Part.data
    message = b"\x2a" + _varint(len(part)) + part  # Message.parts
    return b"\x12" + _varint(len(message)) + message  # SendMessageResponse.message


async def test_a_deeply_nested_answer_is_refused_not_a_crash() -> None:
    """Everything an agent sends is untrusted: nesting is bounded (protobuf's decoder stops
    at its depth limit; the ProtoJSON then meets the JSON depth limit)."""

    async def answer(_request: bytes, _context: object) -> bytes:
        return _nested_answer(5000)

    server = grpc.aio.server()
    handler: grpc.RpcMethodHandler[bytes, bytes] = grpc.unary_unary_rpc_method_handler(answer)
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("lf.a2a.v1.A2AService", {"SendMessage": handler}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with client() as c:
            with pytest.raises(A2AProtocolError, match="not a valid lf.a2a.v1") as raised:
                await _describe(c, f"127.0.0.1:{port}")
    finally:
        await server.stop(grace=None)
    assert c.exchanges[0].error is not None and c.exchanges[0].status == 0
    # The limit hit is named, and whose it is: the same data passes over JSON-RPC.
    assert "This is the gRPC binding's limit" in str(raised.value)
    assert f"not sia-tui's JSON depth limit ({limits.MAX_JSON_DEPTH})" in str(raised.value)


def test_arguments_deeper_than_protobuf_decoders_accept_are_refused_naming_the_limit() -> None:
    """A Struct of 40 levels encoded (the JSON bindings accept 256) and the agent's protobuf
    decoder refused it with an opaque error; sia-tui's own decoder refused the answer with
    "Exceeded upb_DecodeOptions_MaxDepth". Both now say which limit and whose it is."""
    from sia_tui.core.a2a.grpc import messages as pb

    data: Any = "leaf"
    for _ in range(40):
        data = {"a": data}
    request = {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"data": data}]}}
    with pytest.raises(A2AProtocolError) as raised:
        pb.encode("SendMessageRequest", request)
    message = str(raised.value)
    assert message.startswith("cannot send as SendMessageRequest: nested deeper than protobuf")
    assert f"({pb.PROTOBUF_DEPTH} message levels" in message
    assert "This is the gRPC binding's limit" in message
