"""A schema-interface agent built with the official a2a-sdk 1.3 (test helper, not shipped).

It serves the card, describe_skill and evaluate_resource_condition over JSON-RPC and
HTTP+JSON, so `sia-tui check` can be pointed at an agent that is not ours.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import grpc.aio
from a2a.helpers import get_data_parts, new_data_part, new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.request_handlers.grpc_handler import GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCard, AgentInterface, a2a_pb2_grpc
from google.protobuf.json_format import ParseDict
from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sia_tui.agent import schemas
from sia_tui.agent.catalog import SKILLS_BY_ID
from sia_tui.agent.documents import assemble
from sia_tui.agent.skills import OBSERVED_AT
from sia_tui.agent.threaded import serve_in_thread
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.schemas.validation import compile_schema

SKILL = "evaluate_resource_condition"
#: The example the card's skill entry lists (as a vendor would): the document has none.
CARD_EXAMPLE = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"},
}


def _document_without_examples() -> dict[str, Any]:
    """The reference document with the input schema's ``examples`` removed (its digest
    recomputed): like a vendor's, its skeleton does not validate (``""`` vs minLength)."""
    document = copy.deepcopy(assemble(SKILLS_BY_ID[SKILL], digest_of))
    reference = document["input_schema"]
    reference["resolution"]["schema"].pop("examples", None)
    reference["digest"] = digest_of(reference["resolution"]["schema"])
    return document


DOCUMENT = _document_without_examples()
DIGEST = digest_of(DOCUMENT)


def peer_card(base: str) -> AgentCard:
    """A 1.0 card with the extension, parsed into the SDK's protobuf type."""
    card = {
        "name": "a2a-sdk schema-interface peer",
        "description": "Built with a2a-sdk 1.3.",
        "version": "0.1.0",
        "supportedInterfaces": [
            {"url": f"{base}/a2a/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": f"{base}/a2a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        ],
        "capabilities": {
            "streaming": True,
            "extensions": [
                {
                    "uri": EXTENSION_URI,
                    "required": False,
                    "params": {
                        "interface_version": "1.0",
                        "skills": [
                            {"skill_id": SKILL, "skill_version": "1.0", "interface_digest": DIGEST}
                        ],
                    },
                }
            ],
        },
        "defaultInputModes": ["application/json"],
        "defaultOutputModes": ["application/json"],
        "skills": [
            {
                "id": "describe_skill",
                "name": "Describe skill",
                "description": "Skill Interface Documents",
                "tags": ["schema-interface"],
            },
            {
                "id": SKILL,
                "name": "Evaluate resource condition",
                "description": "Appendix B",
                "tags": ["network"],
                "examples": ["Is network-resource-123 above 80%?", json.dumps(CARD_EXAMPLE)],
            },
        ],
    }
    return ParseDict(card, AgentCard())


class PeerExecutor(AgentExecutor):
    """describe_skill and the Appendix B skill with the draft's server-side checks."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        task = context.current_task or new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        data = get_data_parts(context.message.parts)
        request: Any = data[0] if len(data) == 1 else None
        if not isinstance(request, dict):
            await self._error(updater, "reject", "input_invalid", "one data part expected")
        elif request.get("skill") == "describe_skill":
            if (request.get("arguments") or {}).get("skill_id") != SKILL:
                await self._error(updater, "failed", "interface_unavailable", "unknown skill")
                return
            await updater.add_artifact(
                [new_data_part({"interface_digest": DIGEST, "skill_interface": DOCUMENT})],
                artifact_id="describe-1",
                name="describe_skill",
            )
            await updater.complete()
        elif (
            request.get("skill") != SKILL
            or request.get("skill_version") != "1.0"
            or request.get("interface_digest") != DIGEST
        ):
            await self._error(updater, "reject", "interface_mismatch", "not the active interface")
        else:
            await self._evaluate(updater, request.get("arguments"))

    async def _evaluate(self, updater: TaskUpdater, arguments: Any) -> None:
        problems = compile_schema(schemas.RESOURCE_CONDITION_INPUT.schema).validate(arguments)
        if problems:
            await self._error(
                updater,
                "reject",
                "input_invalid",
                problems[0].message,
                [p.as_detail() for p in problems],
            )
            return
        await updater.start_work()
        value = 42 if arguments["resource_id"] == "network-resource-123" else 7
        condition = arguments["condition"]
        threshold, operator = condition["threshold"], condition["operator"]
        met = {
            "gt": value > threshold,
            "gte": value >= threshold,
            "lt": value < threshold,
            "lte": value <= threshold,
        }[operator]
        unit = arguments["condition"]["unit"]
        await updater.add_artifact(
            [
                new_data_part(
                    {
                        "result": "condition_met" if met else "condition_not_met",
                        "observed_value": value,
                        "unit": unit,
                        "supporting_record_refs": ["observation-7"],
                    }
                )
            ],
            artifact_id="result-1",
            name=SKILL,
        )
        await updater.add_artifact(
            [
                new_data_part(
                    {
                        "record_id": "observation-7",
                        "resource_id": arguments["resource_id"],
                        "metric": arguments["condition"]["metric"],
                        "value": value,
                        "unit": unit,
                        "observed_at": OBSERVED_AT,
                    }
                )
            ],
            artifact_id="observation-7",
            name="resource-observation",
        )
        await updater.complete()

    async def _error(
        self,
        updater: TaskUpdater,
        how: str,
        code: str,
        message: str,
        details: list[dict[str, str]] | None = None,
    ) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if details:
            error["details"] = details
        status_message = updater.new_agent_message([new_data_part(error)])
        await (updater.reject if how == "reject" else updater.failed)(status_message)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError("nothing here runs long enough to cancel")


class EchoExtension:
    """ASGI middleware: the SDK does not echo A2A-Extensions (A2A-NOTES §2.2)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        requested = b",".join(v for k, v in scope.get("headers", []) if k == b"a2a-extensions")
        if scope["type"] != "http" or EXTENSION_URI.encode() not in requested:
            await self.app(scope, receive, send)
            return

        async def send_with_echo(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"a2a-extensions", EXTENSION_URI.encode()),
                ]
            await send(message)

        await self.app(scope, receive, send_with_echo)


def peer_app(base: str, served: dict[str, Any] | None = None) -> Starlette:
    """The peer's HTTP app; ``served`` receives its card and request handler (gRPC's too)."""
    card = peer_card(base)
    handler = DefaultRequestHandler(PeerExecutor(), InMemoryTaskStore(), card)
    if served is not None:
        served.update(card=card, handler=handler)
    routes = [
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, "/a2a/jsonrpc"),
        *create_rest_routes(handler, path_prefix="/a2a/rest"),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(EchoExtension)
    return app


@asynccontextmanager
async def serving_sdk_grpc(card: AgentCard, handler: DefaultRequestHandler) -> AsyncIterator[str]:
    """a2a-sdk's own GrpcHandler on a free loopback port; the card lists it last."""
    server = grpc.aio.server()
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(  # type: ignore[no-untyped-call]
        GrpcHandler(handler), server
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    address = f"127.0.0.1:{port}"
    card.supported_interfaces.append(
        AgentInterface(url=address, protocol_binding="GRPC", protocol_version="1.0")
    )
    try:
        yield address
    finally:
        await server.stop(grace=None)


@contextmanager
def running_extension_agent(*, grpc: bool = False) -> Iterator[str]:
    """Serve the peer on 127.0.0.1 with an ephemeral port; yield its base URL. With
    ``grpc``, the SDK's GrpcHandler serves the same handler too."""
    served: dict[str, Any] = {}
    server = serve_in_thread(
        lambda base: peer_app(base, served),
        name="sdk-peer",
        companion=(lambda: serving_sdk_grpc(served["card"], served["handler"])) if grpc else None,
    )
    try:
        yield server.url
    finally:
        server.stop()
