"""The Agent Card: interfaces, the schema-interface advertisement, skill entries."""

from __future__ import annotations

import httpx

from sia_tui.agent.catalog import SKILLS
from sia_tui.core.constants import EXTENSION_URI
from tests.support.agent_wire import Agent
from tests.support.agents import StartAgent


async def test_card_lists_both_bindings_at_the_requested_port(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    running = reference_agent()
    card = await Agent(http, running.url).card()
    assert card["supportedInterfaces"] == [
        {
            "url": running.url + "/a2a/jsonrpc",
            "protocolBinding": "JSONRPC",
            "protocolVersion": "1.0",
        },
        {
            "url": running.url + "/a2a/rest",
            "protocolBinding": "HTTP+JSON",
            "protocolVersion": "1.0",
        },
    ]
    assert card["capabilities"]["streaming"] is True


async def test_advertisement_binds_every_domain_skill_once(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES ADV1, ADV2, ADV3."""
    card = await Agent(http, reference_agent().url).card()
    [ext] = card["capabilities"]["extensions"]
    assert ext["uri"] == EXTENSION_URI and ext["required"] is False
    assert ext["params"]["interface_version"] == "1.0"
    bound = [b["skill_id"] for b in ext["params"]["skills"]]
    assert bound == [spec.skill_id for spec in SKILLS]
    assert all(b["interface_digest"].startswith("sha256:") for b in ext["params"]["skills"])
    ids = [s["id"] for s in card["skills"]]
    assert ids[0] == "describe_skill" and set(bound) <= set(ids)


async def test_single_binding_card_and_routes(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    running = reference_agent(bindings="jsonrpc")
    card = await Agent(http, running.url).card()
    assert [i["protocolBinding"] for i in card["supportedInterfaces"]] == ["JSONRPC"]
    response = await http.get(running.url + "/a2a/rest/tasks/x", headers={"A2A-Version": "1.0"})
    assert response.status_code == 404
