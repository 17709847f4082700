"""Streaming order, polling with returnImmediately, and CancelTask."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from tests.support.agent_wire import V1, Agent, invocation, sse_payloads, user_message
from tests.support.agents import StartAgent

LINK = {"link_id": "l1", "required_mbps": 1}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    """One label per event: task, a state, or the artifact name."""
    out = []
    for event in events:
        if "task" in event:
            out.append("task")
        elif "statusUpdate" in event:
            out.append(event["statusUpdate"]["status"]["state"].removeprefix("TASK_STATE_"))
        else:
            out.append(event["artifactUpdate"]["artifact"]["name"])
    return out


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_stream_sends_record_before_result_and_ends_at_completed(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    """RULES INV10: the record arrives as a complete Artifact before the result."""
    agent = Agent(http, reference_agent().url, binding)
    digest = (await agent.describe("check_link_capacity"))["interface_digest"]
    events = await agent.stream(invocation("check_link_capacity", digest, LINK))
    assert kinds(events) == [
        "task",
        "WORKING",
        "WORKING",
        "link-probe",
        "WORKING",
        "check_link_capacity",
        "COMPLETED",
    ]
    assert events[3]["artifactUpdate"]["lastChunk"] is True
    task_ids = {e.get("task", {}).get("id") or next(iter(e.values()))["taskId"] for e in events}
    assert len(task_ids) == 1


async def test_stream_of_a_rejected_invocation_ends_at_rejected(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url)
    events = await agent.stream(invocation("check_link_capacity", "sha256:" + "1" * 64, LINK))
    assert kinds(events) == ["task", "REJECTED"]


async def test_stream_frames_end_with_crlf_crlf(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url, "rest")
    params = {
        "message": user_message(
            {"skill": "describe_skill", "arguments": {"skill_id": "check_link_capacity"}}
        )
    }
    response = await http.post(
        agent.rest_url + "/message:stream", content=json.dumps(params), headers=V1
    )
    assert response.content.startswith(b"data: {") and response.content.endswith(b"}\r\n\r\n")
    assert kinds(sse_payloads(response.content)) == ["task", "describe_skill", "COMPLETED"]


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_poll_until_completed(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    agent = Agent(http, reference_agent().url, binding)
    digest = (await agent.describe("check_link_capacity"))["interface_digest"]
    task = await agent.send(
        invocation("check_link_capacity", digest, LINK), {"returnImmediately": True}
    )
    assert task["status"]["state"] == "TASK_STATE_WORKING"
    for _ in range(200):
        task = await get_task(agent, task["id"])
        if task["status"]["state"] != "TASK_STATE_WORKING":
            break
        await asyncio.sleep(0.05)
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert [a["name"] for a in task["artifacts"]] == ["link-probe", "check_link_capacity"]


async def get_task(agent: Agent, task_id: str) -> dict[str, Any]:
    if agent.binding == "jsonrpc":
        task: dict[str, Any] = (await agent.rpc("GetTask", {"id": task_id})).json()["result"]
        return task
    response = await agent.client.get(f"{agent.rest_url}/tasks/{task_id}", headers=V1)
    task = response.json()
    return task


async def cancel_task(agent: Agent, task_id: str) -> httpx.Response:
    if agent.binding == "jsonrpc":
        return await agent.rpc("CancelTask", {"id": task_id})
    return await agent.client.post(f"{agent.rest_url}/tasks/{task_id}:cancel", headers=V1)


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_cancel_a_running_task_then_cancel_again_is_refused(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    agent = Agent(http, reference_agent(step_delay=5.0).url, binding)
    digest = (await agent.describe("check_link_capacity"))["interface_digest"]
    task = await agent.send(
        invocation("check_link_capacity", digest, LINK), {"returnImmediately": True}
    )
    response = await cancel_task(agent, task["id"])
    canceled = response.json()["result"] if binding == "jsonrpc" else response.json()
    assert canceled["status"]["state"] == "TASK_STATE_CANCELED"
    assert (await get_task(agent, task["id"]))["status"]["state"] == "TASK_STATE_CANCELED"
    again = await cancel_task(agent, task["id"])
    if binding == "jsonrpc":
        assert again.json()["error"]["code"] == -32002
    else:
        assert again.status_code == 400
        assert again.json()["error"]["details"][0]["reason"] == "TASK_NOT_CANCELABLE"


async def test_cancel_ends_an_open_stream(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent(step_delay=5.0).url)
    digest = (await agent.describe("check_link_capacity"))["interface_digest"]
    params = {"message": user_message(invocation("check_link_capacity", digest, LINK))}
    body = {"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage", "params": params}
    async with http.stream("POST", agent.rpc_url, json=body, headers=V1) as response:
        lines = response.aiter_lines()
        first = json.loads((await anext(lines)).removeprefix("data: "))
        task_id = first["result"]["task"]["id"]
        assert (await cancel_task(agent, task_id)).json()["result"]["status"][
            "state"
        ] == "TASK_STATE_CANCELED"
        rest = [json.loads(line.removeprefix("data: ")) async for line in lines if line]
    assert rest[-1]["result"]["statusUpdate"]["status"]["state"] == "TASK_STATE_CANCELED"


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_unknown_task_is_not_found(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    agent = Agent(http, reference_agent().url, binding)
    if binding == "jsonrpc":
        error = (await agent.rpc("GetTask", {"id": "nope"})).json()["error"]
        assert error["code"] == -32001
        assert error["data"][0]["reason"] == "TASK_NOT_FOUND"
    else:
        response = await http.get(agent.rest_url + "/tasks/nope", headers=V1)
        assert response.status_code == 404
        assert response.json()["error"]["status"] == "NOT_FOUND"


async def test_task_memory_is_bounded(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    """The oldest task is forgotten once max_tasks is reached."""
    agent = Agent(http, reference_agent(max_tasks=2).url)
    first = await agent.send({"skill": "describe_skill", "arguments": {"skill_id": "x"}})
    for _ in range(2):
        await agent.send({"skill": "describe_skill", "arguments": {"skill_id": "x"}})
    error = (await agent.rpc("GetTask", {"id": first["id"]})).json()["error"]
    assert error["code"] == -32001
