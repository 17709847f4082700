"""Starlette routes: the Agent Card, JSON-RPC and HTTP+JSON bindings, SSE, headers."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from sia_tui.agent import a2a_wire as wire
from sia_tui.agent.a2a_errors import INVALID_ID, jsonrpc_error, request_id, rest_error
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.errors import OperationError
from sia_tui.agent.faults import Fault
from sia_tui.agent.push import PushSender, checked_webhook, webhook_of
from sia_tui.agent.push_configs import PushConfigs
from sia_tui.agent.service import AgentService, Starting, check_message, is_final
from sia_tui.agent.tasks import TaskRecord
from sia_tui.agent.tracing import receive as receive_trace
from sia_tui.core.constants import EXTENSION_URI, EXTENSIONS_HEADER, LEGACY_EXTENSIONS_HEADER
from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.jsonkit.strictjson import loads
from sia_tui.core.trace_context import TRACEPARENT

REST_TYPE = "application/a2a+json"
#: The push notification config methods by their 1.0 name (A2A 1.0 sections 3.1.7-3.1.10).
PUSH_METHODS: dict[str, Callable[[PushConfigs, Any], dict[str, Any]]] = {
    "CreateTaskPushNotificationConfig": PushConfigs.create,
    "GetTaskPushNotificationConfig": PushConfigs.get,
    "ListTaskPushNotificationConfigs": PushConfigs.list,
    "DeleteTaskPushNotificationConfig": PushConfigs.delete,
}
#: What the ``malformed`` fault answers to describe_skill: not JSON at all.
MALFORMED_BODY = b"\x00\xff<html>describe_skill: internal error</html"


class BadRequest(SiaError):
    """The body could not be read as a request: too large or not JSON."""

    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


class AgentApp:
    """Binds an AgentService to HTTP."""

    def __init__(self, config: AgentConfig) -> None:
        self.config = config
        self.service = AgentService(config)
        self.legacy = config.has(Fault.V03)
        #: Set when the server is stopping, so a ``slow`` delay ends instead of being killed.
        self.stopping = threading.Event()
        #: ``host:port`` of the gRPC server once it listens (the card lists it last).
        self.grpc_address: str | None = None
        self.pusher = PushSender(legacy=self.legacy, spell=self._spelt)
        #: Create/Get/List/Delete TaskPushNotificationConfig, for every binding.
        self.push_configs = PushConfigs(self.service, config.push, self._follow_config)

    def _follow_config(self, task: TaskRecord, config: dict[str, Any]) -> None:
        webhook = checked_webhook(config, self.config.push, "config")
        task_id, config_id = task.id, config["id"]
        self.pusher.follow(task, webhook, lambda: self.push_configs.registered(task_id, config_id))

    def starting(self, params: Any) -> Starting:
        """What to do with a new task of this send: push its events when it registered a
        webhook (refused here, before the task exists, when the config says so); the
        webhook is then one of the task's push notification configs."""
        webhook = webhook_of(params, self.config.push, legacy=self.legacy)
        if webhook is None:
            return None
        if self.legacy:
            return lambda task: self.pusher.follow(task, webhook)
        inline = params["configuration"]["taskPushNotificationConfig"]
        return lambda task: self.push_configs.adopt(task, inline)

    def push_method(self, method: str, params: Any) -> dict[str, Any] | None:
        """The answer of a push notification config method, or None for another method."""
        operation = PUSH_METHODS.get(method)
        return None if operation is None else operation(self.push_configs, params)

    # --- shared plumbing ---------------------------------------------------------------------

    async def _body(self, request: Request) -> Any:
        """The parsed JSON body, refusing more than max_request_bytes (never read past it)."""
        limit = self.config.max_request_bytes
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise BadRequest(-32600, "REQUEST_TOO_LARGE", f"request body exceeds {limit} bytes")
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise BadRequest(
                        -32600, "REQUEST_TOO_LARGE", f"request body exceeds {limit} bytes"
                    )
                chunks.append(chunk)
        except ClientDisconnect:  # the client gave up (e.g. its timeout): nothing to answer
            raise BadRequest(-32600, "CLIENT_DISCONNECTED", "the client went away") from None
        try:
            # The same strict loader as the client: NaN, duplicates and deep nesting are errors.
            return loads(b"".join(chunks), max_bytes=limit)
        except JsonInputError as exc:
            raise BadRequest(-32700, "PARSE_ERROR", f"Parse error: {exc}") from None

    def _version_error(self, request: Request) -> str | None:
        """1.0 endpoints reject a missing or 0.x A2A-Version (read as 0.3)."""
        if self.legacy:
            return None  # 0.3 agents ignore the header
        version = request.headers.get("a2a-version", "").strip() or "0.3"
        if version.split(".")[0] == "1":
            return None
        return f"A2A version '{version[:20]}' is not supported by this agent. Expected '1.0'."

    def _headers(self, request: Request) -> dict[str, str]:
        """Echo the extension when the request activated it (RULES ADV5)."""
        requested = ",".join(
            request.headers.getlist(EXTENSIONS_HEADER)
            + request.headers.getlist(LEGACY_EXTENSIONS_HEADER)
        )
        if EXTENSION_URI in {uri.strip() for uri in requested.split(",")}:
            headers = {EXTENSIONS_HEADER: EXTENSION_URI}
            if self.legacy:
                headers[LEGACY_EXTENSIONS_HEADER] = EXTENSION_URI
            return headers
        return {}

    async def slow(self) -> None:
        """The ``slow`` fault: wait before answering (every binding)."""
        if not self.config.has(Fault.SLOW):
            return
        deadline = time.monotonic() + self.config.slow_seconds
        while time.monotonic() < deadline and not self.stopping.is_set():
            await asyncio.sleep(min(0.05, self.config.slow_seconds))

    def _task_json(self, task: dict[str, Any]) -> dict[str, Any]:
        return wire.v03_task(task) if self.legacy else task

    def _sse(
        self,
        events: AsyncIterator[dict[str, Any]],
        wrap: Callable[[dict[str, Any]], dict[str, Any]],
        headers: dict[str, str],
    ) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            if self.config.has(Fault.WIRE_UNKNOWN_EVENT):
                yield b"data: " + _dump(wrap(wire.UNKNOWN_EVENT)) + b"\r\n\r\n"
            async for event in events:
                yield b"data: " + _dump(self._spelt(wrap(event))) + b"\r\n\r\n"

        return StreamingResponse(
            body(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", **headers}
        )

    # --- routes ------------------------------------------------------------------------------

    async def card(self, request: Request) -> Response:
        """GET /.well-known/agent-card.json, URLs built from the request's own host."""
        receive_trace(request.headers.get(TRACEPARENT), "GET /.well-known/agent-card.json")
        card = self._card_json(request)
        if self.config.sign_key is not None:
            from sia_tui.core.trust.sign import sign_card  # only a signing agent loads JOSE

            card = sign_card(card, self.config.sign_key)
        return Response(_dump(card), media_type="application/json")

    def _card_json(self, request: Request) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        return wire.agent_card(self.config, self.service.documents, base, self.grpc_address)

    def _extended_card(self, request: Request) -> dict[str, Any] | None:
        """GetExtendedAgentCard's answer in OAuth2 mode (the token was checked), else None."""
        if not self.config.oauth2:
            return None
        from sia_tui.agent.oauth2 import extended_card

        return extended_card(self._card_json(request))

    async def jsonrpc(self, request: Request) -> Response:
        """POST /a2a/jsonrpc."""
        receive_trace(request.headers.get(TRACEPARENT), "POST /a2a/jsonrpc")
        headers = self._headers(request)
        await self.slow()
        try:
            body = await self._body(request)
        except BadRequest as exc:
            return self._rpc(
                jsonrpc_error(None, exc.code, exc.message, exc.reason, legacy=self.legacy),
                headers,
            )
        rid = request_id(body)
        if (
            rid is INVALID_ID
            or not isinstance(body, dict)
            or body.get("jsonrpc") != "2.0"
            or not isinstance(body.get("method"), str)
        ):
            # JSON-RPC 2.0 section 5: the request's own id when it can be read, else null.
            return self._rpc(
                jsonrpc_error(
                    None if rid is INVALID_ID else rid,
                    -32600,
                    "Invalid Request",
                    "INVALID_REQUEST",
                    legacy=self.legacy,
                ),
                headers,
            )
        method, params = body["method"], body.get("params")
        version_error = self._version_error(request)
        if version_error is not None:
            return self._rpc(
                jsonrpc_error(rid, -32009, version_error, "VERSION_NOT_SUPPORTED"), headers
            )
        if method == "GetExtendedAgentCard" and (card := self._extended_card(request)):
            return self._rpc({"jsonrpc": "2.0", "id": rid, "result": card}, headers)

        def rpc_event(event: dict[str, Any]) -> dict[str, Any]:
            return {"jsonrpc": "2.0", "id": rid, "result": self._event(event)}

        names = (
            ("message/send", "message/stream", "tasks/get", "tasks/cancel", "tasks/resubscribe")
            if self.legacy
            else ("SendMessage", "SendStreamingMessage", "GetTask", "CancelTask", "SubscribeToTask")
        )
        try:
            if method == names[0]:
                if self.malformed(params):
                    return Response(MALFORMED_BODY, media_type="application/json", headers=headers)
                if self.legacy:  # a 0.3 agent answers with the Task itself
                    task = (await self.service.send(params, self.starting(params))).snapshot()
                    result = wire.v03_task(task)
                else:
                    result = await self.service.answer(params, self.starting(params))
            elif method == names[1]:
                check_message(params)
                return self._sse(
                    self.service.stream(params, self.starting(params)), rpc_event, headers
                )
            elif method == names[4]:
                self.service.subscribable(params)  # an error answers before any stream
                return self._sse(self.service.subscribe(params), rpc_event, headers)
            elif method == names[2]:
                result = self._task_json(self.service.get_task(params))
            elif method == names[3]:
                result = self._task_json(self.service.cancel(params).snapshot())
            elif method == "ListTasks" and not self.legacy:  # new in 1.0
                result = self.service.list_tasks(params)
            elif not self.legacy and (pushed := self.push_method(method, params)) is not None:
                result = pushed
            else:
                return self._rpc(
                    jsonrpc_error(
                        rid, -32601, "Method not found", "METHOD_NOT_FOUND", legacy=self.legacy
                    ),
                    headers,
                )
        except OperationError as exc:
            return self._rpc(
                jsonrpc_error(rid, exc.code, exc.message, exc.reason, legacy=self.legacy),
                headers,
            )
        return self._rpc({"jsonrpc": "2.0", "id": rid, "result": result}, headers)

    def _event(self, event: dict[str, Any]) -> dict[str, Any]:
        if not self.legacy:
            return event
        update = event.get("statusUpdate")
        return wire.v03_event(event, update is not None and is_final(update["status"]["state"]))

    def malformed(self, params: Any) -> bool:
        """True when the ``malformed`` fault answers these params with bytes that do not
        parse (a describe_skill request)."""
        if not self.config.has(Fault.MALFORMED) or not isinstance(params, dict):
            return False
        message = params.get("message")
        return isinstance(message, dict) and self.service.is_describe(message)

    def _spelt(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The answer as sent: the ``wire-v03-state`` fault spells its states the 0.3 way."""
        if self.config.has(Fault.WIRE_V03_STATE):
            spelt: dict[str, Any] = wire.with_v03_states(payload)
            return spelt
        return payload

    def _rpc(self, payload: dict[str, Any], headers: dict[str, str]) -> Response:
        body = _dump(self._spelt(payload))
        return Response(body, media_type="application/json", headers=headers)

    def _rest(
        self, payload: dict[str, Any], headers: dict[str, str], status: int = 200
    ) -> Response:
        body = _dump(self._spelt(payload))
        return Response(body, status_code=status, media_type=REST_TYPE, headers=headers)

    async def rest(self, request: Request) -> Response:
        """The HTTP+JSON binding under /a2a/rest."""
        receive_trace(request.headers.get(TRACEPARENT), f"{request.method} {request.url.path}")
        headers = self._headers(request)
        await self.slow()
        version_error = self._version_error(request)
        if version_error is not None:
            return self._rest(
                rest_error(400, "FAILED_PRECONDITION", version_error, "VERSION_NOT_SUPPORTED"),
                headers,
                400,
            )
        path = request.path_params["rest_path"]
        try:
            return await self._rest_route(request, path, headers)
        except BadRequest as exc:
            return self._rest(
                rest_error(400, "INVALID_ARGUMENT", exc.message, exc.reason), headers, 400
            )
        except OperationError as exc:
            return self._rest(
                rest_error(exc.http_status, exc.status, exc.message, exc.reason),
                headers,
                exc.http_status,
            )

    async def _rest_route(self, request: Request, path: str, headers: dict[str, str]) -> Response:
        method = request.method
        if method == "POST" and path == "message:send":
            params = await self._body(request)
            if self.malformed(params):
                return Response(MALFORMED_BODY, media_type=REST_TYPE, headers=headers)
            return self._rest(await self.service.answer(params, self.starting(params)), headers)
        if method == "POST" and path == "message:stream":
            params = await self._body(request)
            check_message(params)
            events = self.service.stream(params, self.starting(params))
            return self._sse(events, lambda e: e, headers)
        card = self._extended_card(request) if path == "extendedAgentCard" else None
        if method == "GET" and card is not None:
            return self._rest(card, headers)
        if method == "GET" and path == "tasks":
            return self._rest(self.service.list_tasks(dict(request.query_params)), headers)
        if path.startswith("tasks/") and "/pushNotificationConfigs" in path:
            return await self._rest_push(request, path, headers)
        if path.startswith("tasks/"):
            task_id, _, action = path.removeprefix("tasks/").partition(":")
            if method == "GET" and not action:
                query = dict(request.query_params)
                return self._rest(self.service.get_task({**query, "id": task_id}), headers)
            if method == "POST" and action == "cancel":
                return self._rest(self.service.cancel({"id": task_id}).snapshot(), headers)
            if action == "subscribe":  # POST or GET (A2A 1.0 section 11.3)
                self.service.subscribable({"id": task_id})
                return self._sse(self.service.subscribe({"id": task_id}), lambda e: e, headers)
        return self._rest(
            rest_error(404, "NOT_FOUND", f"no route {method} {path[:100]}", "METHOD_NOT_FOUND"),
            headers,
            404,
        )

    async def _rest_push(self, request: Request, path: str, headers: dict[str, str]) -> Response:
        """``/tasks/{taskId}/pushNotificationConfigs[/{id}]`` (A2A 1.0 section 11.3)."""
        task_id, _, rest = path.removeprefix("tasks/").partition("/pushNotificationConfigs")
        config_id = rest.removeprefix("/")
        keys = {"taskId": task_id, "id": config_id}
        if request.method == "POST" and not rest:
            body = await self._body(request)
            body = body if isinstance(body, dict) else {}
            return self._rest(self.push_configs.create({**body, "taskId": task_id}), headers)
        if request.method == "GET" and not rest:
            return self._rest(self.push_configs.list(keys), headers)
        if request.method == "GET" and config_id and "/" not in config_id:
            return self._rest(self.push_configs.get(keys), headers)
        if request.method == "DELETE" and config_id and "/" not in config_id:
            return self._rest(self.push_configs.delete(keys), headers)
        return self._rest(
            rest_error(
                404, "NOT_FOUND", f"no route {request.method} {path[:100]}", "METHOD_NOT_FOUND"
            ),
            headers,
            404,
        )


def create_app(config: AgentConfig | None = None) -> Starlette:
    """The reference agent as an ASGI app; documents are built and validated here."""
    agent = AgentApp(config or AgentConfig())
    routes = [Route("/.well-known/agent-card.json", agent.card, methods=["GET"])]
    if agent.legacy:
        routes.append(Route("/.well-known/agent.json", agent.card, methods=["GET"]))
    if agent.config.serves_jsonrpc:
        routes.append(Route("/a2a/jsonrpc", agent.jsonrpc, methods=["POST"]))
    if agent.config.serves_rest:
        routes.append(
            Route("/a2a/rest/{rest_path:path}", agent.rest, methods=["GET", "POST", "DELETE"])
        )
    middleware = []
    if agent.config.oauth2:
        from starlette.middleware import Middleware

        from sia_tui.agent.oauth2 import TOKEN_PATH, RequireToken, TokenIssuer

        issuer = TokenIssuer()
        routes.append(Route(TOKEN_PATH, issuer.token, methods=["POST"]))
        middleware.append(Middleware(RequireToken, issuer=issuer))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.agent = agent
    return app
