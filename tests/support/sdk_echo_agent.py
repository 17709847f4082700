"""An a2a-sdk 1.3.0 agent (test-only dev dependency) serving 1.0 and the 0.3 compat endpoints."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from a2a.helpers.proto_helpers import get_data_parts, new_data_part, new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
)
from starlette.applications import Starlette

from sia_tui.agent.threaded import serve_in_thread


class EchoExecutor(AgentExecutor):
    """Completes with the received data echoed in an artifact, or rejects on request."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        task = new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        data = get_data_parts(list(context.message.parts))
        if data and data[0].get("action") == "reject":
            await updater.reject()
            return
        await updater.start_work()
        await updater.add_artifact([new_data_part({"echo": data})], name="echo", last_chunk=True)
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


def _card(base: str) -> AgentCard:
    interfaces = [
        AgentInterface(url=f"{base}/jsonrpc", protocol_binding="JSONRPC", protocol_version=v)
        for v in ("1.0", "0.3")
    ] + [
        AgentInterface(url=f"{base}/rest", protocol_binding="HTTP+JSON", protocol_version=v)
        for v in ("1.0", "0.3")
    ]
    return AgentCard(
        name="sdk peer",
        description="a2a-sdk interop peer",
        version="1",
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["application/json"],
        default_output_modes=["application/json"],
        skills=[AgentSkill(id="echo", name="Echo", description="echoes", tags=["test"])],
    )


def _app(base: str) -> Starlette:
    card = _card(base)
    handler = DefaultRequestHandler(EchoExecutor(), InMemoryTaskStore(), card)
    return Starlette(
        routes=[
            *create_agent_card_routes(card),
            *create_jsonrpc_routes(handler, "/jsonrpc", enable_v0_3_compat=True),
            *create_rest_routes(handler, enable_v0_3_compat=True, path_prefix="/rest"),
        ]
    )


@contextmanager
def running_echo_agent() -> Iterator[str]:
    """Serve the peer on an ephemeral 127.0.0.1 port; yield its base URL; stop after."""
    server = serve_in_thread(_app, name="sdk-echo-peer")
    try:
        yield server.url
    finally:
        server.stop()
