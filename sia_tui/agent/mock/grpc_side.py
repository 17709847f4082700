"""The mock over gRPC: recorded calls answered again by grpc.aio (loaded for gRPC sessions).

A recorded gRPC exchange holds its request and answers as ProtoJSON and its status; a
live call is decoded to ProtoJSON by the core's ``grpc.messages`` and keyed as the
HTTP bindings are (``keys.call_key``), and answered with the recorded messages encoded
again and the recorded status with its ``ErrorInfo`` (``replay_grpc``, as replay serves
them). Raw-bytes handlers, as the reference agent's gRPC server has.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from sia_tui.agent.grpc_port import started_server
from sia_tui.agent.mock import app
from sia_tui.agent.mock.app import MAX_STALL_SECONDS, MockConfig, recorded_waits, stalls
from sia_tui.agent.mock.keys import RequestKey, call_key
from sia_tui.agent.mock.push import Refused, live_push
from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.a2a.grpc.runtime import grpc
from sia_tui.core.errors import A2AProtocolError, ResponseTooLarge
from sia_tui.core.exchange import Exchange
from sia_tui.core.session.recorded_ending import recorded_ending
from sia_tui.core.session.replay_grpc import recorded_answer, recorded_message

_DETAILS_KEY = "grpc-status-details-bin"
#: The request message of each method the mock answers.
REQUESTS = {
    "SendMessage": "SendMessageRequest",
    "SendStreamingMessage": "SendMessageRequest",
    "GetTask": "GetTaskRequest",
    "CancelTask": "CancelTaskRequest",
    "ListTasks": "ListTasksRequest",
    "SubscribeToTask": "SubscribeToTaskRequest",
}
_STREAMING = frozenset({"SendStreamingMessage", "SubscribeToTask"})
Context = grpc.aio.ServicerContext[Any, Any]
#: Field 1000, length-delimited: a field no A2A message has, so a reader skips it.
_PADDING_TAG = 1000 << 3 | 2


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _status(code: int) -> grpc.StatusCode:
    return next((s for s in grpc.StatusCode if s.value[0] == code), grpc.StatusCode.UNKNOWN)


class GrpcMock:
    """Every method of ``lf.a2a.v1.A2AService`` answered from the recording."""

    def __init__(self, config: MockConfig) -> None:
        self.config = config
        self.recording = config.recording
        self.deliveries = config.deliveries()

    async def _find(
        self, method: str, data: bytes, context: Context
    ) -> tuple[RequestKey, Exchange | None]:
        """The recorded answer to a call; a webhook it registers gets the recorded
        deliveries (``push.py``), or the call is refused when the user did not allow it."""
        try:
            params: Any = pb.decode(REQUESTS[method], data)
        except A2AProtocolError:
            params = None
        key = call_key(f"/{pb.SERVICE}/{method}", method, params)
        key = key.loose() if self.recording.loose else key
        ex = self.recording.answer(key)
        push = (
            None
            if ex is None
            else live_push(self.recording.pushes, self.config.push_to, ex, params)
        )
        if isinstance(push, Refused):
            self.recording.give_back(key)
            self.config.on_push_refused(push.printed)
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, push.answer)
        if push is not None and not isinstance(push, Refused):
            self.deliveries.start(*push)
        return key, ex

    async def _end(self, ex: Exchange | None, key: RequestKey, context: Context) -> None:
        """The recorded status (OK returns); an unmatched call is UNIMPLEMENTED with what
        the session holds; a recorded timeout waits for the client to give up."""
        if ex is None:
            text = (
                f"sia-tui mock: the session holds no answer to {key}; it holds:\n"
                f"{self.recording.holdings()}"
            )
            self.config.on_unmatched(text)
            await context.abort(grpc.StatusCode.UNIMPLEMENTED, text)
            return
        if ex.status is None:
            if stalls(ex):
                await self._stall(context)
            await context.abort(grpc.StatusCode.UNAVAILABLE, ex.error or "no answer recorded")
            return
        answer = recorded_answer(ex)
        if answer.code == 0:
            return
        if answer.details_bin is not None:
            context.set_trailing_metadata(((_DETAILS_KEY, answer.details_bin),))
        await context.abort(_status(answer.code), answer.message)

    async def _stall(self, context: Context) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + MAX_STALL_SECONDS
        while loop.time() < until and not self.config.stopping.is_set():
            if context.done():
                return
            await asyncio.sleep(0.05)

    def _past_the_limit(self, method: str, ex: Exchange) -> bytes:
        """An answer the recorded client's limit cut: the kept message, then an unknown
        field of padding one byte past that limit (cut again, nothing invented)."""
        kept = recorded_message(pb.RESPONSES[method], ex.response_body) if ex.response_body else b""
        size = max(self.recording.max_response_bytes + 1 - len(kept), 0)
        return kept + _varint(_PADDING_TAG) + _varint(size) + b" " * size

    def unary(self, method: str) -> Callable[[bytes, Context], Awaitable[bytes]]:
        async def call(data: bytes, context: Context) -> bytes:
            key, ex = await self._find(method, data, context)
            if ex is not None and isinstance(recorded_ending(ex), ResponseTooLarge):
                return self._past_the_limit(method, ex)
            if ex is None or ex.status != 0:
                await self._end(ex, key, context)
                raise AssertionError("abort returns only by raising")
            return recorded_message(pb.RESPONSES[method], ex.response_body)

        return call

    def streaming(self, method: str) -> Callable[[bytes, Context], AsyncIterator[bytes]]:
        async def call(data: bytes, context: Context) -> AsyncIterator[bytes]:
            key, ex = await self._find(method, data, context)
            events = ex.events if ex is not None else ()
            timed = ex is not None and self.config.timing == "recorded"
            waits = recorded_waits(ex, len(events)) if ex is not None and timed else []
            for index, event in enumerate(events):
                if index < len(waits) and waits[index]:
                    await app.pause(waits[index])  # looked up now, so a test counts it
                yield recorded_message(pb.RESPONSES[method], event)
            await self._end(ex, key, context)

        return call

    def handler(self) -> grpc.GenericRpcHandler:
        unary, streaming = grpc.unary_unary_rpc_method_handler, grpc.unary_stream_rpc_method_handler
        return grpc.method_handlers_generic_handler(
            pb.SERVICE,
            {
                method: streaming(self.streaming(method))
                if method in _STREAMING
                else unary(self.unary(method))
                for method in REQUESTS
            },
        )


@asynccontextmanager
async def serving_mock_grpc(config: MockConfig, host: str, port: int) -> AsyncIterator[str]:
    """Serve the recording's gRPC calls on ``host:port`` (0: a free port) while inside;
    yields ``host:port`` and tells the mock, so its card points there."""
    server, address = await started_server(GrpcMock(config).handler(), host, port)
    config.grpc_address = address
    try:
        yield address
    finally:
        config.grpc_address = None
        await asyncio.shield(server.stop(grace=0.5))
