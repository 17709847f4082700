"""Interop with the official a2a-sdk 1.3.0 server: every interface, both dialects, on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Task
from tests.support.sdk_echo_agent import running_echo_agent

BADGES = ["JSONRPC 1.0", "JSONRPC 0.3", "HTTP+JSON 1.0", "HTTP+JSON 0.3"]


@pytest.fixture(scope="module")
def peer() -> Iterator[str]:
    with running_echo_agent() as base:
        yield base


@pytest.mark.parametrize("badge", BADGES)
async def test_send_get_and_stream_on_every_interface(peer: str, badge: str) -> None:
    async with A2AClient(ClientOptions()) as client:
        card = (await client.fetch_card(peer)).card
        iface = next(i for i in card.interfaces if i.badge == badge)
        task = await client.send(iface, {"action": "complete", "n": 3}, purpose="invoke")
        assert isinstance(task, Task), task
        again = await client.get_task(iface, task.id)
        events = [e async for e in client.stream(iface, {"action": "reject"}, purpose="invoke")]
    assert task.state == "TASK_STATE_COMPLETED"
    (artifact,) = task.artifacts
    assert artifact.name == "echo"
    assert artifact.data_parts() == [{"echo": [{"action": "complete", "n": 3.0}]}]
    assert again.id == task.id and again.state == "TASK_STATE_COMPLETED"
    assert events[-1].final and events[-1].state == "TASK_STATE_REJECTED"
    assert all(e.error is None for e in client.exchanges)
