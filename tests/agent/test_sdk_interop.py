"""Interop with the official a2a-sdk 1.3: its client accepts our agent; its server hosts a peer."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from a2a.client import ClientConfig, create_client
from a2a.helpers import get_data_parts, new_data_message
from a2a.types import Role, SendMessageRequest, TaskState

from sia_tui.core.jsonkit.canonical import digest_of
from tests.support.agent_wire import Agent, error_of, invocation
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.documents import document_errors

SKILL = "evaluate_resource_condition"


async def sdk_send(base: str, binding: str, data: Any, seen: list[str]) -> Any:
    """Send one message with the SDK client restricted to ``binding``; return its Task."""

    async def record(request: httpx.Request) -> None:
        seen.append(str(request.url))

    async with httpx.AsyncClient(event_hooks={"request": [record]}) as http:
        client = await create_client(
            base,
            ClientConfig(streaming=False, httpx_client=http, supported_protocol_bindings=[binding]),
        )
        try:
            message = new_data_message(data, role=Role.ROLE_USER)
            responses = [r async for r in client.send_message(SendMessageRequest(message=message))]
        finally:
            await client.close()
    [response] = responses
    return response.task


@pytest.mark.parametrize(
    ("binding", "path"), [("JSONRPC", "/a2a/jsonrpc"), ("HTTP+JSON", "/a2a/rest/message:send")]
)
async def test_sdk_client_accepts_the_reference_agent(
    reference_agent: StartAgent, binding: str, path: str
) -> None:
    base = reference_agent().url
    seen: list[str] = []
    described = await sdk_send(
        base, binding, {"skill": "describe_skill", "arguments": {"skill_id": SKILL}}, seen
    )
    assert described.status.state == TaskState.TASK_STATE_COMPLETED
    [data] = get_data_parts(described.artifacts[0].parts)
    # Numbers come back as floats through protobuf Value; JCS digests are unaffected.
    assert digest_of(data["skill_interface"]) == data["interface_digest"]
    task = await sdk_send(
        base, binding, invocation(SKILL, data["interface_digest"], APPENDIX_B_ARGUMENTS), seen
    )
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    results = {a.name: get_data_parts(a.parts)[0] for a in task.artifacts}
    assert results[SKILL]["result"] == "condition_not_met"
    assert results["resource-observation"]["record_id"] == "observation-7"
    assert seen.count(base + path) == 2


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_sdk_extension_agent_serves_the_extension(
    sdk_extension_agent_url: str, binding: str
) -> None:
    """The SDK-built peer passes our own document checks and enforces INV2/INV3."""
    async with httpx.AsyncClient(timeout=10) as http:
        agent = Agent(http, sdk_extension_agent_url, binding)
        card = await agent.card()
        [binding_ad] = card["capabilities"]["extensions"][0]["params"]["skills"]
        described = await agent.describe(SKILL)
        errors = document_errors(
            described["skill_interface"],
            skill_id=SKILL,
            skill_version="1.0",
            advertised=binding_ad["interface_digest"],
            returned=described["interface_digest"],
        )
        assert errors == []
        task = await agent.send(
            invocation(SKILL, described["interface_digest"], APPENDIX_B_ARGUMENTS)
        )
        assert task["status"]["state"] == "TASK_STATE_COMPLETED"
        assert task["artifacts"][0]["parts"][0]["data"]["result"] == "condition_not_met"
        bad = {
            **APPENDIX_B_ARGUMENTS,
            "condition": {**APPENDIX_B_ARGUMENTS["condition"], "operator": "eq"},
        }
        rejected = await agent.send(invocation(SKILL, described["interface_digest"], bad))
        assert rejected["status"]["state"] == "TASK_STATE_REJECTED"
        assert error_of(rejected)["details"][0]["instance_path"] == "/condition/operator"
        mismatch = await agent.send(invocation(SKILL, "sha256:" + "2" * 64, APPENDIX_B_ARGUMENTS))
        assert error_of(mismatch)["code"] == "interface_mismatch"


async def test_sdk_auth_interceptor_reads_the_oauth2_agents_card(
    reference_agent: StartAgent,
) -> None:
    """a2a-sdk 1.3's AuthInterceptor with an InMemoryContextCredentialStore: given a token
    from the OAuth2 reference agent's own endpoint under the card's scheme name, it sends it
    as the bearer and the agent answers; without it, the agent's 401 stops the SDK too. So
    the card declares the scheme and requirement the way the SDK reads them."""
    from a2a.client import ClientCallContext
    from a2a.client.auth import AuthInterceptor, InMemoryContextCredentialStore
    from a2a.client.errors import A2AClientError

    from sia_tui.agent.config import AgentConfig
    from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, SCHEME_NAME, TOKEN_PATH

    base = reference_agent(AgentConfig(oauth2=True, step_delay=0.01)).url
    store = InMemoryContextCredentialStore()
    async with httpx.AsyncClient(timeout=10) as http:
        answer = await http.post(
            base + TOKEN_PATH,
            data={"grant_type": "client_credentials"},
            auth=(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET),
        )
        await store.set_credentials("s1", SCHEME_NAME, answer.json()["access_token"])
        client = await create_client(
            base,
            ClientConfig(streaming=False, httpx_client=http),
            interceptors=[AuthInterceptor(store)],
        )
        message = new_data_message(
            {"skill": "describe_skill", "arguments": {"skill_id": SKILL}}, role=Role.ROLE_USER
        )
        try:
            request = SendMessageRequest(message=message)
            context = ClientCallContext(state={"sessionId": "s1"})
            [response] = [r async for r in client.send_message(request, context=context)]
            assert response.task.status.state == TaskState.TASK_STATE_COMPLETED
            with pytest.raises(A2AClientError, match="401"):
                [r async for r in client.send_message(request)]  # no sessionId: no token
        finally:
            await client.close()
