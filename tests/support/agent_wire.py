"""Test helpers: speak A2A 1.0 to the reference agent with plain httpx."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx

from sia_tui.core.constants import EXTENSION_URI

V1 = {"A2A-Version": "1.0", "A2A-Extensions": EXTENSION_URI}


def user_message(data: Any) -> dict[str, Any]:
    """One user Message with one data part (RULES INV1, DS1)."""
    return {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_USER",
        "parts": [{"data": data, "mediaType": "application/json"}],
    }


def describe_request(skill_id: str) -> dict[str, Any]:
    return {"skill": "describe_skill", "arguments": {"skill_id": skill_id}}


def invocation(skill: str, digest: str, arguments: Any, version: str = "1.0") -> dict[str, Any]:
    return {
        "skill": skill,
        "skill_version": version,
        "interface_digest": digest,
        "arguments": arguments,
    }


def sse_payloads(body: bytes) -> list[Any]:
    """The JSON of each ``data:`` event of an SSE body."""
    text = body.decode("utf-8").replace("\r\n", "\n")
    return [
        json.loads(block.removeprefix("data: "))
        for block in text.split("\n\n")
        if block.startswith("data: ")
    ]


class Agent:
    """One agent, spoken to over JSON-RPC ("jsonrpc") or HTTP+JSON ("rest")."""

    def __init__(self, client: httpx.AsyncClient, base: str, binding: str = "jsonrpc") -> None:
        self.client, self.base, self.binding = client, base, binding

    @property
    def rpc_url(self) -> str:
        return self.base + "/a2a/jsonrpc"

    @property
    def rest_url(self) -> str:
        return self.base + "/a2a/rest"

    async def card(self) -> dict[str, Any]:
        response = await self.client.get(self.base + "/.well-known/agent-card.json")
        assert response.status_code == 200
        card: dict[str, Any] = response.json()
        return card

    async def rpc(
        self,
        method: str,
        params: Any,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        body = {"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
        headers = V1 if headers is None else headers
        return await self.client.post(self.rpc_url, json=body, headers=headers)

    async def send(
        self,
        data: Any,
        configuration: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """SendMessage on this binding; returns the Task."""
        params: dict[str, Any] = {"message": user_message(data)}
        if configuration:
            params["configuration"] = configuration
        if self.binding == "jsonrpc":
            response = await self.rpc("SendMessage", params)
            task: dict[str, Any] = response.json()["result"]["task"]
        else:
            response = await self.client.post(
                self.rest_url + "/message:send",
                content=json.dumps(params),
                headers={**V1, "Content-Type": "application/a2a+json"},
            )
            assert response.headers["content-type"].startswith("application/a2a+json")
            task = response.json()["task"]
        assert response.status_code == 200
        return task

    async def stream(self, data: Any) -> list[dict[str, Any]]:
        """SendStreamingMessage; returns the bare StreamResponse payloads in order."""
        params = {"message": user_message(data)}
        if self.binding == "jsonrpc":
            response = await self.rpc("SendStreamingMessage", params)
            return [event["result"] for event in sse_payloads(response.content)]
        response = await self.client.post(
            self.rest_url + "/message:stream", content=json.dumps(params), headers=V1
        )
        assert response.headers["content-type"].startswith("text/event-stream")
        return sse_payloads(response.content)

    async def describe(self, skill_id: str) -> dict[str, Any]:
        """The describe_skill artifact data of a COMPLETED task."""
        task = await self.send(describe_request(skill_id))
        assert task["status"]["state"] == "TASK_STATE_COMPLETED", task["status"]
        [artifact] = task["artifacts"]
        assert artifact["name"] == "describe_skill"
        [part] = artifact["parts"]
        data: dict[str, Any] = part["data"]
        return data

    async def invoke(self, skill: str, arguments: Any) -> dict[str, Any]:
        """describe_skill, then invoke with the returned version and digest."""
        described = await self.describe(skill)
        return await self.send(invocation(skill, described["interface_digest"], arguments))


def error_of(task: dict[str, Any]) -> dict[str, Any]:
    """RULES ERR1: the one data part of the final status message."""
    [part] = task["status"]["message"]["parts"]
    error: dict[str, Any] = part["data"]
    return error


def artifacts_by_name(task: dict[str, Any]) -> dict[str, Any]:
    return {a["name"]: a["parts"][0]["data"] for a in task.get("artifacts", [])}
