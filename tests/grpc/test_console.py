"""The plain A2A console over gRPC: a text or data part, sync or streamed, with no step and
no verdict; each call recorded like the others."""

from __future__ import annotations

import json

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.console import ConsoleRequest, PartKind, send_console
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Target
from tests.support.agent_wire import describe_request
from tests.support.agents import StartAgent


@pytest.mark.parametrize("mode", ["sync", "stream"])
async def test_the_console_sends_over_grpc(reference_agent: StartAgent, mode: str) -> None:
    agent = reference_agent(grpc_port=0)
    procedure = Procedure(Target(agent.url, binding="grpc"), ClientOptions())
    try:
        run = await procedure.run_until(1)
    finally:
        await procedure.aclose()
    request = ConsoleRequest(
        PartKind.DATA, json.dumps(describe_request("evaluate_resource_condition")), mode=mode
    )
    reply = await send_console(request, run.interface, agent.url, ClientOptions())
    assert reply.error is None and reply.task is not None
    assert reply.task.state == "TASK_STATE_COMPLETED"
    (call,) = reply.exchanges
    assert call.grpc and call.status == 0
    assert not any(k == "a2a-extensions" for k, _ in call.request_headers)  # plain A2A
