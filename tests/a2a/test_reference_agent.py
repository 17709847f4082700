"""End to end against the team's reference agent on 127.0.0.1 (both bindings, send and stream)."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Task
from sia_tui.core.constants import DESCRIBE_SKILL, DIGEST_MEMBER, DOCUMENT_MEMBER
from tests.support.agents import StartAgent


@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_card_describe_and_stream(reference_agent: StartAgent, binding: str) -> None:
    agent = reference_agent()
    async with A2AClient(ClientOptions(bearer="tok")) as client:
        fetched = await client.fetch_card(agent.url)
        ad = fetched.card.schema_interface
        assert ad is not None and ad.bindings
        iface = next(i for i in fetched.card.interfaces if i.binding == binding)
        request = {"skill": DESCRIBE_SKILL, "arguments": {"skill_id": ad.bindings[0].skill_id}}
        task = await client.send(iface, request, purpose="describe_skill")
        events = [e async for e in client.stream(iface, request, purpose="describe_skill")]
    assert isinstance(task, Task) and task.state == "TASK_STATE_COMPLETED"
    (artifact,) = task.artifacts
    (payload,) = artifact.data_parts()
    assert payload[DIGEST_MEMBER] == ad.bindings[0].interface_digest
    assert payload[DOCUMENT_MEMBER]["skill_id"] == ad.bindings[0].skill_id
    assert events[0].kind == "task" and events[-1].final
    assert [e.purpose for e in client.exchanges] == [
        "agent card",
        "describe_skill",
        "describe_skill",
    ]
    assert client.warnings == []
