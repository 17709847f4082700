"""A2A-level errors: version header, bad JSON, oversized bodies, unknown methods, echo."""

from __future__ import annotations

import json

import httpx
import pytest

from sia_tui.core.constants import EXTENSION_URI
from tests.support.agent_wire import V1, Agent, describe_request, user_message
from tests.support.agents import StartAgent

DESCRIBE = {"message": user_message(describe_request("evaluate_resource_condition"))}


@pytest.mark.parametrize("version", [None, "", "0.3"])
async def test_missing_or_legacy_version_is_refused_on_jsonrpc(
    reference_agent: StartAgent, http: httpx.AsyncClient, version: str | None
) -> None:
    agent = Agent(http, reference_agent().url)
    headers = {} if version is None else {"A2A-Version": version}
    error = (await agent.rpc("SendMessage", DESCRIBE, headers)).json()["error"]
    assert error["code"] == -32009
    assert error["data"] == [
        {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "VERSION_NOT_SUPPORTED",
            "domain": "a2a-protocol.org",
            "metadata": {},
        }
    ]


async def test_missing_version_is_refused_on_http_json(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url, "rest")
    response = await http.post(agent.rest_url + "/message:send", json=DESCRIBE)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["status"] == "FAILED_PRECONDITION"
    assert error["details"][0]["reason"] == "VERSION_NOT_SUPPORTED"


async def test_version_1_minor_is_accepted(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url)
    response = await agent.rpc("SendMessage", DESCRIBE, {"A2A-Version": "1.7"})
    assert "result" in response.json()


async def test_bad_json_and_unknown_method(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url)
    parse = await http.post(agent.rpc_url, content=b'{"jsonrpc": "2.0", "id": 1,', headers=V1)
    assert parse.json()["error"]["code"] == -32700
    unknown = await agent.rpc("message/send", DESCRIBE)
    assert unknown.json()["error"]["code"] == -32601
    not_rpc = await http.post(agent.rpc_url, content=b"[1, 2]", headers=V1)
    assert not_rpc.json()["error"]["code"] == -32600
    no_message = await agent.rpc("SendMessage", {"message": "hi"})
    assert no_message.json()["error"]["code"] == -32602


async def test_nan_and_duplicate_members_are_parse_errors(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """The agent parses requests as strictly as the client parses answers."""
    agent = Agent(http, reference_agent().url)
    for body in (
        b'{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"n": NaN}}',
        b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "GetTask", "params": {}}',
    ):
        response = await http.post(agent.rpc_url, content=body, headers=V1)
        error = response.json()["error"]
        assert error["code"] == -32700, error
        assert "1:" in error["message"]  # located: line and column


async def test_deeply_nested_json_is_an_error_not_a_crash(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url)
    body = b"[" * 100_000 + b"]" * 100_000
    response = await http.post(agent.rpc_url, content=body, headers=V1)
    assert response.json()["error"]["code"] == -32700
    assert (await agent.card())["name"]  # still serving


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_oversized_body_gets_an_a2a_error(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    agent = Agent(http, reference_agent(max_request_bytes=4096).url, binding)
    arguments = {"skill_id": "x" * 10_000}
    params = {"message": user_message({"skill": "describe_skill", "arguments": arguments})}
    if binding == "jsonrpc":
        response = await agent.rpc("SendMessage", params)
        error = response.json()["error"]
        assert error["code"] == -32600 and "4096" in error["message"]
    else:
        response = await http.post(
            agent.rest_url + "/message:send", content=json.dumps(params), headers=V1
        )
        assert response.status_code == 400
        assert response.json()["error"]["details"][0]["reason"] == "REQUEST_TOO_LARGE"


async def test_extension_header_is_echoed_only_when_requested(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES ADV5: the agent confirms the activated extension."""
    agent = Agent(http, reference_agent().url)
    activated = await agent.rpc("SendMessage", DESCRIBE)
    assert activated.headers["A2A-Extensions"] == EXTENSION_URI
    plain = await agent.rpc("SendMessage", DESCRIBE, {"A2A-Version": "1.0"})
    assert "A2A-Extensions" not in plain.headers
