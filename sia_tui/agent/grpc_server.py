"""The reference agent over gRPC: the same AgentService, faults and tasks as over HTTP.

Served by grpc.aio on the event loop of the HTTP server (tasks and their queues belong to
one loop), with raw-bytes handlers: the core's ``grpc.messages`` turns protobuf into the
1.0 JSON the service speaks and back. That round trip is what a gRPC agent does to the
data: every number in a ``google.protobuf.Value`` becomes a double on the way out.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from sia_tui.agent.a2a_errors import error_info
from sia_tui.agent.app import MALFORMED_BODY, AgentApp
from sia_tui.agent.errors import OperationError, invalid_params
from sia_tui.agent.grpc_port import started_server
from sia_tui.agent.tracing import receive as receive_trace
from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.a2a.grpc.runtime import grpc
from sia_tui.core.a2a.grpc.status import status_bytes
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.trace_context import TRACEPARENT

_DETAILS_KEY = "grpc-status-details-bin"
#: The push notification config RPCs: method, request message, answer (None: Empty).
PUSH_RPCS = (
    (
        "CreateTaskPushNotificationConfig",
        "TaskPushNotificationConfig",
        "TaskPushNotificationConfig",
    ),
    (
        "GetTaskPushNotificationConfig",
        "GetTaskPushNotificationConfigRequest",
        "TaskPushNotificationConfig",
    ),
    (
        "ListTaskPushNotificationConfigs",
        "ListTaskPushNotificationConfigsRequest",
        "ListTaskPushNotificationConfigsResponse",
    ),
    ("DeleteTaskPushNotificationConfig", "DeleteTaskPushNotificationConfigRequest", None),
)


async def _abort(context: grpc.aio.ServicerContext[Any, Any], exc: OperationError) -> None:
    """The A2A error as a status with an ``ErrorInfo`` (A2A 1.0 section 10.6)."""
    code = getattr(grpc.StatusCode, exc.status, grpc.StatusCode.UNKNOWN)
    details = status_bytes(code.value[0], exc.message, error_info(exc.reason))
    context.set_trailing_metadata(((_DETAILS_KEY, details),))
    await context.abort(code, exc.message)


def _metadata(context: grpc.aio.ServicerContext[Any, Any], key: str) -> list[str]:
    return [str(v) for k, v in context.invocation_metadata() or () if k == key]


class GrpcAgent:
    """The five A2A calls as grpc.aio handlers over one AgentApp."""

    def __init__(self, agent: AgentApp) -> None:
        self.agent = agent
        self.service = agent.service

    def _check(self, context: grpc.aio.ServicerContext[Any, Any], kind: str, data: bytes) -> Any:
        """The request as 1.0 JSON, after the version check (A2A 1.0 section 3.6); the
        call's traceparent read first (tracing.py), as over HTTP."""
        sent = _metadata(context, TRACEPARENT)
        receive_trace(sent[0] if sent else None, f"gRPC {kind}")
        version = (_metadata(context, "a2a-version") or ["0.3"])[0].strip() or "0.3"
        if version.split(".")[0] != "1":
            raise OperationError(
                -32009,
                400,
                "FAILED_PRECONDITION",
                "VERSION_NOT_SUPPORTED",
                f"A2A version '{version[:20]}' is not supported by this agent. Expected '1.0'.",
            )
        try:
            return pb.decode(kind, data)
        except A2AProtocolError as exc:
            raise invalid_params(str(exc)) from None

    async def _echo(self, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """Echo the extension when the call activated it (RULES ADV5), as HTTP does."""
        requested = ",".join(_metadata(context, "a2a-extensions"))
        if EXTENSION_URI in {uri.strip() for uri in requested.split(",")}:
            await context.send_initial_metadata((("a2a-extensions", EXTENSION_URI),))

    def unary(
        self, handler: Callable[[Any], Awaitable[bytes]], kind: str
    ) -> Callable[[bytes, grpc.aio.ServicerContext[Any, Any]], Awaitable[bytes]]:
        async def call(data: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
            await self._echo(context)
            await self.agent.slow()
            try:
                return await handler(self._check(context, kind, data))
            except OperationError as exc:
                await _abort(context, exc)
                raise AssertionError("abort returns only by raising") from None

        return call

    def streaming(
        self, handler: Callable[[Any], AsyncIterator[dict[str, Any]]], kind: str
    ) -> Callable[[bytes, grpc.aio.ServicerContext[Any, Any]], AsyncIterator[bytes]]:
        async def call(data: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            await self._echo(context)
            await self.agent.slow()
            try:
                async for event in handler(self._check(context, kind, data)):
                    yield pb.encode("StreamResponse", event)
            except OperationError as exc:
                await _abort(context, exc)

        return call

    async def send(self, params: Any) -> bytes:
        if self.agent.malformed(params):
            return MALFORMED_BODY  # not a protobuf message: the client's parse must fail
        answer = await self.service.answer(params, self.agent.starting(params))
        return pb.encode("SendMessageResponse", answer)

    def stream(self, params: Any) -> AsyncIterator[dict[str, Any]]:
        return self.service.stream(params, self.agent.starting(params))

    async def list_tasks(self, params: Any) -> bytes:
        return pb.encode("ListTasksResponse", self.service.list_tasks(params))

    async def get(self, params: Any) -> bytes:
        return pb.encode("Task", self.service.get_task(params))

    def push(self, method: str, answer: str | None) -> Callable[[Any], Awaitable[bytes]]:
        """A push notification config method; ``answer`` None: google.protobuf.Empty."""

        async def call(params: Any) -> bytes:
            result = self.agent.push_method(method, params)
            assert result is not None, method
            return b"" if answer is None else pb.encode(answer, result)

        return call

    async def cancel(self, params: Any) -> bytes:
        return pb.encode("Task", self.service.cancel(params).snapshot())

    def handler(self) -> grpc.GenericRpcHandler:
        """The ``lf.a2a.v1.A2AService`` methods the reference agent serves."""
        unary, streaming = grpc.unary_unary_rpc_method_handler, grpc.unary_stream_rpc_method_handler
        return grpc.method_handlers_generic_handler(
            pb.SERVICE,
            {
                "SendMessage": unary(self.unary(self.send, "SendMessageRequest")),
                "GetTask": unary(self.unary(self.get, "GetTaskRequest")),
                "CancelTask": unary(self.unary(self.cancel, "CancelTaskRequest")),
                "SendStreamingMessage": streaming(
                    self.streaming(self.stream, "SendMessageRequest")
                ),
                "ListTasks": unary(self.unary(self.list_tasks, "ListTasksRequest")),
                "SubscribeToTask": streaming(
                    self.streaming(self.service.subscribe, "SubscribeToTaskRequest")
                ),
                **{
                    method: unary(self.unary(self.push(method, answer), request))
                    for method, request, answer in PUSH_RPCS
                },
            },
        )


@asynccontextmanager
async def serving_grpc(
    agent: AgentApp, host: str, port: int, *, tls: grpc.ServerCredentials | None = None
) -> AsyncIterator[str]:
    """Serve ``agent`` over gRPC on ``host:port`` (0: a free port) while inside, with TLS
    when given ``tls``; yields ``host:port`` and tells the agent, so its card lists it."""
    server, address = await started_server(GrpcAgent(agent).handler(), host, port, tls)
    agent.grpc_address = address
    try:
        yield address
    finally:
        agent.grpc_address = None
        # In-flight calls (an open stream, a ``slow`` one) get a moment, as over HTTP.
        await asyncio.shield(server.stop(grace=0.5))
