"""``HttpBinding``: JSON-RPC and HTTP+JSON (A2A 1.0 and 0.3) behind the one ``Binding``.

The codec of the interface's dialect builds each request; the connection the client owns
sends it (headers and credentials per origin, RULES SR7; same-origin redirects only; every
exchange recorded); the codec's readers read the answer. A stream is an HTTP event stream
read as events until a final one.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urljoin

import httpx

from sia_tui.core.a2a.binding import TaskOperation
from sia_tui.core.a2a.http.codec import (
    Codec,
    codec_for,
    read_event,
    read_send,
    read_task,
    read_task_page,
)
from sia_tui.core.a2a.http.extended_card import extended_card_request
from sia_tui.core.a2a.http.recorder import ExchangeRecorder, Reply, content_type_of
from sia_tui.core.a2a.http.wire import WireRequest, jsonrpc_error, unwrap_jsonrpc
from sia_tui.core.a2a.kept_events import KeptEvents
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import TransportError
from sia_tui.core.jsonkit.strictjson import loads as load_json

if TYPE_CHECKING:  # the event-stream reader loads with the first stream
    from sia_tui.core.a2a.http.sse import SSEEvent
    from sia_tui.core.a2a.task_views import Message, StreamEvent, Task, TaskPage


def redirect_refused(status: int, target: str, url: str) -> TransportError:
    """RULES SR7: a redirect names a URL the user did not give; say where, do not go."""
    return TransportError(f"HTTP {status} redirect to {target[:300]!r} was not followed", url=url)


class Credentials(Protocol):
    """The card-driven credentials, made ready before each request (an OAuth2 token)."""

    async def prepare(self) -> None: ...

    def refresh(self) -> bool: ...


class HttpConnection(Protocol):
    """What the HTTP binding sends through: the client's recorded HTTP, with headers and
    credentials decided per URL (``client_base.ClientBase``)."""

    options: ClientOptions
    warnings: list[str]

    @property
    def auth(self) -> Credentials: ...

    @property
    def recorder(self) -> ExchangeRecorder: ...

    def next_id(self) -> int: ...

    def request_headers(
        self,
        version: str,
        url: str,
        codec: Codec | None = None,
        content_type: str | None = None,
        *,
        accept: str | None = None,
    ) -> list[tuple[str, str]]: ...

    def build_request(
        self,
        method: str,
        url: str,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        stream: bool = False,
    ) -> httpx.Request: ...

    async def call(
        self, purpose: str, method: str, url: str, headers: list[tuple[str, str]], body: bytes = b""
    ) -> Reply: ...

    def decode(self, status: int, content_type: str, body: bytes, source: str) -> Any: ...


class HttpBinding:
    """The A2A calls over JSON-RPC or HTTP+JSON, in the interface's dialect."""

    def __init__(self, connection: HttpConnection) -> None:
        self._conn = connection

    async def aclose(self) -> None:
        """Nothing of its own: the connection pool is the client's."""

    # -- calls ------------------------------------------------------------------------------

    async def send(
        self,
        iface: Interface,
        message: dict[str, Any],
        purpose: str,
        return_immediately: bool,
        push: dict[str, Any] | None,
    ) -> Task | Message:
        """SendMessage."""
        codec = codec_for(iface.dialect)
        wire = codec.build(
            iface,
            "send",
            rpc_id=self._conn.next_id(),
            message=message,
            return_immediately=return_immediately,
            push=push,
        )
        payload = await self._unary(purpose, codec, wire)
        return read_send(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)

    async def task_call(
        self, operation: TaskOperation, iface: Interface, task_id: str, purpose: str
    ) -> Task:
        """GetTask or CancelTask."""
        codec = codec_for(iface.dialect)
        wire = codec.build(iface, operation, rpc_id=self._conn.next_id(), task_id=task_id)
        payload = await self._unary(purpose, codec, wire)
        return read_task(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)

    async def list_tasks(
        self, iface: Interface, page_size: int, page_token: str | None, purpose: str
    ) -> TaskPage:
        """ListTasks (A2A 1.0; the 0.3 codec refuses it)."""
        codec = codec_for(iface.dialect)
        wire = codec.build_list(
            iface, rpc_id=self._conn.next_id(), page_size=page_size, page_token=page_token
        )
        payload = await self._unary(purpose, codec, wire)
        return read_task_page(payload, jsonrpc=wire.jsonrpc)

    def stream(
        self,
        iface: Interface,
        message: dict[str, Any],
        purpose: str,
        push: dict[str, Any] | None,
    ) -> AsyncGenerator[StreamEvent, None]:
        """SendStreamingMessage as an HTTP event stream."""
        codec = codec_for(iface.dialect)
        wire = codec.build(iface, "stream", rpc_id=self._conn.next_id(), message=message, push=push)
        return self._events(purpose, codec, wire)

    def subscribe(
        self, iface: Interface, task_id: str, purpose: str
    ) -> AsyncGenerator[StreamEvent, None]:
        """SubscribeToTask (0.3: ``tasks/resubscribe``) as an HTTP event stream."""
        codec = codec_for(iface.dialect)
        wire = codec.build(iface, "subscribe", rpc_id=self._conn.next_id(), task_id=task_id)
        return self._events(purpose, codec, wire)

    async def extended_card(self, iface: Interface, purpose: str) -> Any:
        """GetExtendedAgentCard, sent with the user's credentials: the card's JSON."""
        wire = extended_card_request(iface, self._conn.next_id())
        payload = await self._unary(purpose, codec_for(iface.dialect), wire)
        return unwrap_jsonrpc(payload) if wire.jsonrpc else payload

    # -- plumbing ---------------------------------------------------------------------------

    async def _unary(self, purpose: str, codec: Codec, wire: WireRequest) -> Any:
        conn = self._conn
        await conn.auth.prepare()
        headers = conn.request_headers(codec.version, wire.url, codec, wire.content_type)
        reply = await conn.call(purpose, wire.method, wire.url, headers, wire.body)
        if reply.status == 401 and conn.auth.refresh():
            # An expired or revoked token: one new token, one retry, never a loop.
            await conn.auth.prepare()
            headers = conn.request_headers(codec.version, wire.url, codec, wire.content_type)
            reply = await conn.call(purpose, wire.method, wire.url, headers, wire.body)
        payload = conn.decode(reply.status, reply.content_type, reply.body, reply.exchange.url)
        if wire.jsonrpc and isinstance(payload, dict) and payload.get("id") != wire.rpc_id:
            # Forgiven (the answer is still read) but shown: a proxy or agent mixed up replies.
            conn.warnings.append(
                f"JSON-RPC response id {payload.get('id')!r} does not match "
                f"request id {wire.rpc_id} (exchange {reply.exchange.seq})"
            )
        return payload

    async def _events(
        self, purpose: str, codec: Codec, wire: WireRequest
    ) -> AsyncGenerator[StreamEvent, None]:
        """An HTTP event stream read as events, until a final one or the stream ends (an
        answer that is not a stream is read as the one event, or the error, it carries)."""
        conn, recorder = self._conn, self._conn.recorder
        await conn.auth.prepare()
        headers = conn.request_headers(
            codec.version, wire.url, codec, wire.content_type, accept="text/event-stream"
        )
        request = conn.build_request(wire.method, wire.url, headers, wire.body, stream=True)
        events = KeptEvents()  # one bound for every binding (the gRPC one keeps them alike)
        async with recorder.open(purpose, request, events) as (response, body):
            content_type = response.headers.get("content-type", "").lower()
            if response.is_redirect:  # streams never follow redirects (RULES SR7)
                target = urljoin(wire.url, response.headers.get("location", ""))
                raise redirect_refused(response.status_code, target, wire.url)
            if not response.is_success or "text/event-stream" not in content_type:
                await recorder.read_all(response, body)
                payload = conn.decode(
                    response.status_code, content_type_of(response.headers), bytes(body), wire.url
                )
                yield read_event(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)
                return
            from sia_tui.core.a2a.http.sse import SSEParser

            parser = SSEParser(max_event_bytes=conn.options.max_event_bytes)
            async for chunk in recorder.chunks(response):
                recorder.append(body, chunk)
                for sse in parser.feed(chunk):
                    events.add(sse.data)
                    event = self._event(sse, wire)
                    yield event
                    if event.final:
                        return  # the task ended; do not wait for the server to close
            for sse in parser.close():
                events.add(sse.data)
                yield self._event(sse, wire)

    def _event(self, sse: SSEEvent, wire: WireRequest) -> StreamEvent:
        options = self._conn.options
        payload = load_json(
            sse.data,
            source=f"{wire.url} (SSE event)",
            max_bytes=options.max_event_bytes,
            max_depth=options.max_depth,
        )
        if sse.is_error:  # sse-starlette sends a mid-stream failure as `event: error`
            error = payload.get("error", payload) if isinstance(payload, dict) else payload
            raise jsonrpc_error(error)
        return read_event(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)
