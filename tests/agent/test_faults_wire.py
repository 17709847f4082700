"""Each fault shows its symptom on the wire (the engine-level outcomes live in tests/engine)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from sia_tui.agent.config import MARKUP_SAMPLE, AgentConfig
from sia_tui.agent.documents import not_jcs_digest
from sia_tui.agent.executor import HUGE_BYTES
from sia_tui.agent.faults import FAULT_SPECS, Fault, UnknownFault
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.jsonkit.canonical import digest_of
from tests.support.agent_wire import (
    V1,
    Agent,
    artifacts_by_name,
    describe_request,
    error_of,
    invocation,
    sse_payloads,
    user_message,
)
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

SKILL = "evaluate_resource_condition"


async def digests(agent: Agent) -> tuple[str, str, dict[str, Any]]:
    """(advertised, returned, document) for the Appendix B skill."""
    card = await agent.card()
    advertised = {
        b["skill_id"]: b["interface_digest"]
        for b in card["capabilities"]["extensions"][0]["params"]["skills"]
    }[SKILL]
    described = await agent.describe(SKILL)
    return advertised, described["interface_digest"], described["skill_interface"]


def test_every_fault_has_one_spec_described_in_one_line() -> None:
    assert list(FAULT_SPECS) == list(Fault)
    for fault, spec in FAULT_SPECS.items():
        assert spec.fault is fault
        assert spec.description and "\n" not in spec.description
        assert spec.symptom and "\n" not in spec.symptom


def test_slow_and_huge_exceed_the_clients_defaults() -> None:
    """The faults mean "over the client's limit": they must stay over its defaults."""
    assert AgentConfig().slow_seconds > ClientOptions().read_timeout
    assert ClientOptions().max_response_bytes < HUGE_BYTES


def test_a_misspelt_fault_is_refused_not_a_correct_agent() -> None:
    """A typo must never silently start a correct agent."""
    with pytest.raises(UnknownFault, match="digest-card"):
        AgentConfig(fault="digest-crad")  # type: ignore[arg-type]
    assert AgentConfig(fault="digest-card").fault is Fault.DIGEST_CARD  # type: ignore[arg-type]


async def test_digest_card(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    advertised, returned, document = await digests(
        Agent(http, reference_agent(fault="digest-card").url)
    )
    assert returned == digest_of(document) != advertised


async def test_digest_response(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    advertised, returned, document = await digests(
        Agent(http, reference_agent(fault="digest-response").url)
    )
    assert advertised == digest_of(document) != returned


async def test_not_jcs_uses_json_dumps_default_separators(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    advertised, returned, document = await digests(
        Agent(http, reference_agent(fault="not-jcs").url)
    )
    assert advertised == returned == not_jcs_digest(document) != digest_of(document)
    schema = document["input_schema"]["resolution"]["schema"]
    assert document["input_schema"]["digest"] == not_jcs_digest(schema) != digest_of(schema)


async def test_schema_digest_breaks_only_one_embedded_digest(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    advertised, returned, document = await digests(
        Agent(http, reference_agent(fault="schema-digest").url)
    )
    assert advertised == returned == digest_of(document)
    refs = [
        document["input_schema"],
        document["output_schema"],
        *document["supporting_record_schemas"].values(),
    ]
    wrong = [r["schema_uri"] for r in refs if r["digest"] != digest_of(r["resolution"]["schema"])]
    assert wrong == ["https://example.net/schemas/resource-condition-input"]


async def test_no_describe(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    card = await Agent(http, reference_agent(fault="no-describe").url).card()
    assert "describe_skill" not in [s["id"] for s in card["skills"]]
    assert card["capabilities"]["extensions"][0]["uri"] == EXTENSION_URI


async def test_unavailable(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    task = await Agent(http, reference_agent(fault="unavailable").url).send(describe_request(SKILL))
    assert task["status"]["state"] == "TASK_STATE_FAILED"
    assert error_of(task)["code"] == "interface_unavailable"


async def test_output_invalid(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    task = await Agent(http, reference_agent(fault="output-invalid").url).invoke(
        SKILL, APPENDIX_B_ARGUMENTS
    )
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert artifacts_by_name(task)[SKILL]["result"] not in ("condition_met", "condition_not_met")


async def test_record_invalid(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    task = await Agent(http, reference_agent(fault="record-invalid").url).invoke(
        SKILL, APPENDIX_B_ARGUMENTS
    )
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert "observed_at" not in artifacts_by_name(task)["resource-observation"]


async def test_mismatch(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    task = await Agent(http, reference_agent(fault="mismatch").url).invoke(
        SKILL, APPENDIX_B_ARGUMENTS
    )
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert error_of(task)["code"] == "interface_mismatch"


async def test_slow_outlasts_a_short_client_timeout(reference_agent: StartAgent) -> None:
    agent_url = reference_agent(fault="slow", slow_seconds=2.0).url
    async with httpx.AsyncClient(timeout=0.3) as http:
        agent = Agent(http, agent_url)
        assert (await agent.card())["skills"]  # the card itself is prompt
        with pytest.raises(httpx.ReadTimeout):
            await agent.send(describe_request(SKILL))


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_malformed_describe_is_not_json(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    agent = Agent(http, reference_agent(fault="malformed").url, binding)
    params = {"message": user_message(describe_request(SKILL))}
    if binding == "jsonrpc":
        response = await agent.rpc("SendMessage", params)
    else:
        response = await http.post(agent.rest_url + "/message:send", json=params, headers=V1)
    with pytest.raises(json.JSONDecodeError):
        json.loads(response.content)
    assert (await agent.card())["name"]  # the agent survives


async def test_huge_artifact_exceeds_eight_mib(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent(fault="huge").url)
    digest = (await agent.describe(SKILL))["interface_digest"]
    params = {"message": user_message(invocation(SKILL, digest, APPENDIX_B_ARGUMENTS))}
    response = await agent.rpc("SendMessage", params)
    assert len(response.content) > 12 * 1024 * 1024
    names = [a["name"] for a in response.json()["result"]["task"]["artifacts"]]
    assert names == [SKILL, "resource-observation", "bulk-trace"]


async def test_markup_reaches_card_and_results(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent(fault="markup").url)
    card = await agent.card()
    assert all("[bold red]" in s["name"] and "\x1b[2J" in s["description"] for s in card["skills"])
    task = await agent.invoke(SKILL, APPENDIX_B_ARGUMENTS)
    assert MARKUP_SAMPLE in artifacts_by_name(task)["resource-observation"]["metric"]
    assert "\x07" in task["status"]["message"]["parts"][0]["text"]


async def test_v03_dialect(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    """A2A 0.3: url/preferredTransport card, slash methods, kind, lowercase, final flag."""
    base = reference_agent(fault="v03").url
    card = (await http.get(base + "/.well-known/agent.json")).json()
    assert "supportedInterfaces" not in card
    assert (card["url"], card["preferredTransport"], card["protocolVersion"]) == (
        base + "/a2a/jsonrpc",
        "JSONRPC",
        "0.3.0",
    )
    message = {
        "kind": "message",
        "messageId": "m1",
        "role": "user",
        "parts": [{"kind": "data", "data": describe_request(SKILL)}],
    }
    legacy = {"X-A2A-Extensions": EXTENSION_URI}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
    response = await http.post(card["url"], json=body, headers=legacy)
    assert response.headers["X-A2A-Extensions"] == EXTENSION_URI
    task = response.json()["result"]
    assert (task["kind"], task["status"]["state"]) == ("task", "completed")
    [part] = task["artifacts"][0]["parts"]
    assert part["kind"] == "data" and part["data"]["skill_interface"]["skill_id"] == SKILL
    wrong = await http.post(card["url"], json={**body, "method": "SendMessage"})
    assert wrong.json()["error"]["code"] == -32601
    stream = await http.post(card["url"], json={**body, "method": "message/stream"})
    events = [e["result"] for e in sse_payloads(stream.content)]
    assert [e["kind"] for e in events] == ["task", "artifact-update", "status-update"]
    assert events[-1]["final"] is True and events[-1]["status"]["state"] == "completed"
    got = await http.post(
        card["url"],
        json={"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": task["id"]}},
    )
    assert got.json()["result"]["history"][0]["role"] == "user"


#: Appendix B arguments with a threshold that is a string (RULES INV3).
BAD_ARGUMENTS = {**APPENDIX_B_ARGUMENTS, "condition": {**APPENDIX_B_ARGUMENTS["condition"]}}
BAD_ARGUMENTS["condition"]["threshold"] = "eighty"


async def test_accepts_stale_compares_the_version_but_not_the_digest(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent(fault="accepts-stale").url)
    stale = "sha256:" + "0" * 64
    task = await agent.send(invocation(SKILL, stale, APPENDIX_B_ARGUMENTS))
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    digest = (await agent.describe(SKILL))["interface_digest"]
    task = await agent.send(invocation(SKILL, digest, APPENDIX_B_ARGUMENTS, version="2.0"))
    assert error_of(task)["code"] == "interface_mismatch"


async def test_args_execution_failed(reference_agent: StartAgent, http: httpx.AsyncClient) -> None:
    agent = Agent(http, reference_agent(fault="args-execution-failed").url)
    task = await agent.invoke(SKILL, BAD_ARGUMENTS)
    assert task["status"]["state"] == "TASK_STATE_FAILED"
    assert error_of(task)["code"] == "execution_failed"
    assert (await agent.invoke(SKILL, APPENDIX_B_ARGUMENTS))["status"]["state"] == (
        "TASK_STATE_COMPLETED"
    )


async def test_details_wrong_member_reports_the_schema_path(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    task = await Agent(http, reference_agent(fault="details-wrong-member").url).invoke(
        SKILL, BAD_ARGUMENTS
    )
    error = error_of(task)
    assert error["code"] == "input_invalid"
    [detail] = error["details"]
    assert detail["instance_path"] == detail["schema_path"]
    assert detail["instance_path"] == "/properties/condition/properties/threshold/type"


async def test_ignores_max_input_completes_oversized_arguments(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    big = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "metric": "m" * 5000},
    }
    task = await Agent(http, reference_agent(fault="ignores-max-input").url).invoke(SKILL, big)
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"


async def test_a_request_without_arguments_is_rejected_input_invalid(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES INV1: the request object carries arguments; none is REJECTED before any work."""
    agent = Agent(http, reference_agent().url)
    digest = (await agent.describe(SKILL))["interface_digest"]
    request = invocation(SKILL, digest, None)
    del request["arguments"]
    task = await agent.send(request)
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert error_of(task)["code"] == "input_invalid"


async def test_rejects_boundary_refuses_a_valid_one_character_string(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """The fault fuzzing finds (RULES INV3): minLength 1 allows "x", the agent refuses it."""
    agent = Agent(http, reference_agent(fault="rejects-boundary").url)
    edge = {**APPENDIX_B_ARGUMENTS, "resource_id": "x"}
    error = error_of(await agent.invoke(SKILL, edge))
    assert error["code"] == "input_invalid"
    assert [d["instance_path"] for d in error["details"]] == ["/resource_id"]
    example = await agent.invoke(SKILL, APPENDIX_B_ARGUMENTS)
    assert example["status"]["state"] == "TASK_STATE_COMPLETED"


async def test_output_invalid_some_breaks_the_result_for_a_negative_threshold(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent(fault="output-invalid-some").url)
    negative = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": -1},
    }
    task = await agent.invoke(SKILL, negative)
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    [result] = [a for a in task["artifacts"] if a["artifactId"] == "result-1"]
    assert isinstance(result["parts"][0]["data"]["observed_value"], str)
