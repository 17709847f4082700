"""Domain skills over both bindings, and the agent side of INV2, INV3, INV8, ERR1-ERR5."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.agent_wire import Agent, artifacts_by_name, error_of, invocation
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

BINDINGS = ["jsonrpc", "rest"]

HAPPY: list[tuple[str, dict[str, Any], str, Any]] = [
    ("propose_capacity_upgrade", {"link_id": "l1", "target_mbps": 400}, "approval_required", True),
    (
        "apply_interface_shutdown",
        {"device_id": "r1", "interface_name": "ge-0/0/1"},
        "simulated",
        True,
    ),
    ("measure_available_bandwidth", {"link_id": "l1"}, "unit", "Mbit/s"),
    ("measure_link_capacity", {"link_id": "l1"}, "unit", "Mbit/s"),
    ("admit_traffic_demand", {"link_id": "l1", "value": 250, "unit": "Mbit/s"}, "admitted", True),
    ("check_link_capacity", {"link_id": "l1", "required_mbps": 1}, "verdict", "sufficient"),
]


@pytest.mark.parametrize("binding", BINDINGS)
async def test_appendix_b_gives_condition_not_met_with_observation_7(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    """The draft's Appendix B, byte for byte in values (RULES INV5-INV7)."""
    task = await Agent(http, reference_agent().url, binding).invoke(
        "evaluate_resource_condition", APPENDIX_B_ARGUMENTS
    )
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert [(a["artifactId"], a["name"]) for a in task["artifacts"]] == [
        ("result-1", "evaluate_resource_condition"),
        ("observation-7", "resource-observation"),
    ]
    found = artifacts_by_name(task)
    assert found["evaluate_resource_condition"] == {
        "result": "condition_not_met",
        "observed_value": 42,
        "unit": "percent",
        "supporting_record_refs": ["observation-7"],
    }
    assert found["resource-observation"]["observed_at"] == "2026-08-11T12:00:01Z"


async def test_other_resources_get_stable_made_up_observations(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    agent = Agent(http, reference_agent().url)
    arguments = {**APPENDIX_B_ARGUMENTS, "resource_id": "edge-router-9"}
    first = artifacts_by_name(await agent.invoke("evaluate_resource_condition", arguments))
    second = artifacts_by_name(await agent.invoke("evaluate_resource_condition", arguments))
    assert first == second
    ref = first["evaluate_resource_condition"]["supporting_record_refs"][0]
    assert ref.startswith("observation-") and first["resource-observation"]["record_id"] == ref


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize(("skill", "arguments", "member", "value"), HAPPY)
async def test_each_domain_skill_completes(
    reference_agent: StartAgent,
    http: httpx.AsyncClient,
    binding: str,
    skill: str,
    arguments: dict[str, Any],
    member: str,
    value: Any,
) -> None:
    task = await Agent(http, reference_agent().url, binding).invoke(skill, arguments)
    assert task["status"]["state"] == "TASK_STATE_COMPLETED", task["status"]
    assert artifacts_by_name(task)[skill][member] == value


async def test_wrong_digest_is_a_mismatch_even_with_invalid_arguments(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES INV2: version and digest are compared before the arguments are looked at."""
    agent = Agent(http, reference_agent().url)
    wrong = "sha256:" + "0" * 64
    task = await agent.send(invocation("evaluate_resource_condition", wrong, {"bogus": 1}))
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert error_of(task)["code"] == "interface_mismatch"
    digest = (await agent.describe("evaluate_resource_condition"))["interface_digest"]
    task = await agent.send(
        invocation("evaluate_resource_condition", digest, APPENDIX_B_ARGUMENTS, "1.1")
    )
    assert error_of(task)["code"] == "interface_mismatch"


@pytest.mark.parametrize("binding", BINDINGS)
async def test_invalid_arguments_are_rejected_with_located_details(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    """RULES INV3, ERR1, ERR5: the WIRE.md example, detail for detail."""
    arguments = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "80"},
    }
    task = await Agent(http, reference_agent().url, binding).invoke(
        "evaluate_resource_condition", arguments
    )
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert "artifacts" not in task
    error = error_of(task)
    assert error["code"] == "input_invalid"
    assert error["details"] == [
        {
            "instance_path": "/condition/threshold",
            "schema_path": "/properties/condition/properties/threshold/type",
            "keyword": "type",
            "expected": "number",
            "actual": "string",
        }
    ]


async def test_unknown_skill_is_rejected(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    task = await Agent(http, reference_agent().url).send(
        invocation("reboot_everything", "sha256:" + "0" * 64, {})
    )
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert error_of(task)["code"] == "interface_mismatch"


async def test_message_without_a_single_data_part_is_rejected(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES INV1."""
    agent = Agent(http, reference_agent().url)
    response = await agent.rpc(
        "SendMessage",
        {
            "message": {
                "messageId": "m",
                "role": "ROLE_USER",
                "parts": [{"text": "evaluate please"}, {"data": {"arguments": {}}}],
            }
        },
    )
    task = response.json()["result"]["task"]
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert error_of(task)["code"] == "input_invalid"
