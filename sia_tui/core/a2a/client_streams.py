"""``StreamingCalls``: SendStreamingMessage and SubscribeToTask, an HTTP event stream or a
gRPC server stream read as events until a final one."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any
from urllib.parse import urljoin

from sia_tui.core.a2a.client_base import ClientBase, FollowUpOf, redirect_refused, user_message
from sia_tui.core.a2a.http.codec import Codec, codec_for, read_event
from sia_tui.core.a2a.http.recorder import content_type_of
from sia_tui.core.a2a.http.sse import SSEEvent, SSEParser
from sia_tui.core.a2a.http.wire import WireRequest, jsonrpc_error
from sia_tui.core.a2a.kept_events import KeptEvents
from sia_tui.core.a2a.views import GRPC, Interface, StreamEvent
from sia_tui.core.jsonkit.strictjson import loads as load_json


class StreamingCalls(ClientBase):
    """The two streaming A2A calls; each stream's exchange is recorded as it closes."""

    async def stream(
        self,
        iface: Interface,
        data: Any = None,
        *,
        purpose: str,
        text: str | None = None,
        follows: FollowUpOf | None = None,
        push: dict[str, Any] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """SendStreamingMessage (one data part, or one text part given ``text``; continuing
        the task ``follows`` names): events as they arrive, until a final one or the end;
        ``push`` as for ``send``."""
        codec = codec_for(iface.dialect)
        message = user_message(codec, data, text, follows)
        if iface.binding == GRPC:
            events = self._grpc_events(self._grpc().stream(iface, message, purpose, push))
        else:
            wire = codec.build(iface, "stream", rpc_id=self._next_id(), message=message, push=push)
            events = self._sse(purpose, codec, wire)
        async with aclosing(events) as reading:
            async for event in reading:
                yield event

    async def subscribe(
        self, iface: Interface, task_id: str, *, purpose: str = "subscribe"
    ) -> AsyncIterator[StreamEvent]:
        """SubscribeToTask (0.3: ``tasks/resubscribe``): the task, then its events until a
        final one."""
        if iface.binding == GRPC:
            events = self._grpc_events(self._grpc().subscribe(iface, task_id, purpose))
        else:
            codec = codec_for(iface.dialect)
            wire = codec.build(iface, "subscribe", rpc_id=self._next_id(), task_id=task_id)
            events = self._sse(purpose, codec, wire)
        # Closed here, not when collected: the exchange is recorded as the call ends.
        async with aclosing(events) as reading:
            async for event in reading:
                yield event

    async def _sse(
        self, purpose: str, codec: Codec, wire: WireRequest
    ) -> AsyncGenerator[StreamEvent, None]:
        """An HTTP event stream read as events, until a final one or the stream ends (an
        answer that is not a stream is read as the one event, or the error, it carries)."""
        await self.auth.prepare()
        headers = self._headers(
            codec.version, wire.url, codec, wire.content_type, accept="text/event-stream"
        )
        request = self._build(wire.method, wire.url, headers, wire.body, stream=True)
        events = KeptEvents()  # one bound for every binding (grpc_client keeps them alike)
        async with self._recorder.open(purpose, request, events) as (response, body):
            content_type = response.headers.get("content-type", "").lower()
            if response.is_redirect:  # streams never follow redirects (RULES SR7)
                target = urljoin(wire.url, response.headers.get("location", ""))
                raise redirect_refused(response.status_code, target, wire.url)
            if not response.is_success or "text/event-stream" not in content_type:
                await self._recorder.read_all(response, body)
                payload = self._decode(
                    response.status_code, content_type_of(response.headers), bytes(body), wire.url
                )
                yield read_event(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)
                return
            parser = SSEParser(max_event_bytes=self.options.max_event_bytes)
            async for chunk in self._recorder.chunks(response):
                self._recorder.append(body, chunk)
                for sse in parser.feed(chunk):
                    events.add(sse.data)
                    event = self._event(sse, wire)
                    yield event
                    if event.final:
                        return  # the task ended; do not wait for the server to close
            for sse in parser.close():
                events.add(sse.data)
                yield self._event(sse, wire)

    async def _grpc_events(
        self, messages: AsyncGenerator[Any, None]
    ) -> AsyncGenerator[StreamEvent, None]:
        """StreamResponses read as events, until a final one (the call is then closed)."""
        try:
            async for payload in messages:
                event = read_event(payload, jsonrpc=False)
                yield event
                if event.final:
                    return
        finally:
            await messages.aclose()

    def _event(self, sse: SSEEvent, wire: WireRequest) -> StreamEvent:
        payload = load_json(
            sse.data,
            source=f"{wire.url} (SSE event)",
            max_bytes=self.options.max_event_bytes,
            max_depth=self.options.max_depth,
        )
        if sse.is_error:  # sse-starlette sends a mid-stream failure as `event: error`
            error = payload.get("error", payload) if isinstance(payload, dict) else payload
            raise jsonrpc_error(error)
        return read_event(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)
