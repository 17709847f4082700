"""describe_skill returns the frozen, valid document of each skill (RULES DS1-DS4)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from sia_tui.agent.catalog import SKILLS
from sia_tui.core.interface.document import check_advertisement
from sia_tui.core.jsonkit.canonical import digest_of
from tests.support.agent_wire import Agent, describe_request, error_of
from tests.support.agents import StartAgent
from tests.support.documents import document_errors

SKILL_IDS = [spec.skill_id for spec in SKILLS]


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
async def test_every_document_matches_the_card_and_its_own_digest(
    reference_agent: StartAgent, http: httpx.AsyncClient, binding: str
) -> None:
    """RULES CP4 three-way digests, CP6 embedded digests, SID1 nine members."""
    agent = Agent(http, reference_agent().url, binding)
    card = await agent.card()
    advertised = {
        b["skill_id"]: b["interface_digest"]
        for b in card["capabilities"]["extensions"][0]["params"]["skills"]
    }
    for skill_id in SKILL_IDS:
        described = await agent.describe(skill_id)
        document = described["skill_interface"]
        assert described["interface_digest"] == advertised[skill_id] == digest_of(document)
        assert len(document) == 9 and document["skill_id"] == skill_id
        refs = [
            document["input_schema"],
            document["output_schema"],
            *document["supporting_record_schemas"].values(),
        ]
        for ref in refs:
            assert ref["digest"] == digest_of(ref["resolution"]["schema"])


async def test_every_document_passes_the_core_verifier(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """The client's own checks (RULES CP4-CP6, SID7, SID8) accept every document."""
    agent = Agent(http, reference_agent().url)
    card = await agent.card()
    [extension] = card["capabilities"]["extensions"]
    assert check_advertisement(extension) == []
    advertised = {b["skill_id"]: b["interface_digest"] for b in extension["params"]["skills"]}
    for skill_id in SKILL_IDS:
        described = await agent.describe(skill_id)
        errors = document_errors(
            described["skill_interface"],
            skill_id=skill_id,
            skill_version="1.0",
            advertised=advertised[skill_id],
            returned=described["interface_digest"],
        )
        assert errors == [], (skill_id, errors)


async def test_unknown_skill_is_rejected_as_not_advertised(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES DS4, ERR1, ERR2: an id the card does not advertise is refused before any work:
    REJECTED, one data part with skill_not_advertised (what `sia-tui probe` expects)."""
    task = await Agent(http, reference_agent().url).send(describe_request("no_such_skill"))
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    assert error_of(task)["code"] == "skill_not_advertised"
    assert "artifacts" not in task


async def test_composable_pair_shares_one_reference_and_the_look_alike_differs(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES CMP1, CMP2: equal on uri/version/dialect/digest vs. same shape, other identity."""
    agent = Agent(http, reference_agent().url)
    upstream = (await agent.describe("measure_available_bandwidth"))["skill_interface"]
    downstream = (await agent.describe("admit_traffic_demand"))["skill_interface"]
    look_alike = (await agent.describe("measure_link_capacity"))["skill_interface"]
    keys = ("schema_uri", "version", "dialect", "digest")
    out, into = upstream["output_schema"], downstream["input_schema"]
    assert all(out[k] == into[k] for k in keys)
    other = look_alike["output_schema"]
    assert other["schema_uri"] != into["schema_uri"] and other["digest"] != into["digest"]
    assert other["resolution"]["schema"]["properties"] == into["resolution"]["schema"]["properties"]


async def test_postures_cover_every_authority_mode(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES SID4, SID5: the TUI has observe, recommend (approval) and execute to show."""
    agent = Agent(http, reference_agent().url)
    docs = {s: (await agent.describe(s))["skill_interface"] for s in SKILL_IDS}
    modes = {d["authority"]["default_mode"] for d in docs.values()}
    assert modes == {"observe_only", "recommend_only", "execute"}
    assert docs["propose_capacity_upgrade"]["authority"]["approval_may_be_required"] is True
    long_running = docs["check_link_capacity"]["interaction"]
    assert long_running == {"response_modes": ["sync", "stream", "poll"], "cancellable": True}


async def test_describe_returns_the_same_bytes_every_time(
    reference_agent: StartAgent, http: httpx.AsyncClient
) -> None:
    """RULES DS3: the document is assembled once and immutable; no domain logic rebuilds it."""
    agent = Agent(http, reference_agent().url)
    first = await agent.describe("evaluate_resource_condition")
    second = await agent.describe("evaluate_resource_condition")
    assert first == second
    assert digest_of(first["skill_interface"]) == digest_of(second["skill_interface"])


async def test_every_served_document_passes_sia_tui_lint(
    reference_agent: StartAgent, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    """The agent's own documents pass `sia-tui lint` with their advertised digest."""
    from sia_tui.cli import main

    agent = Agent(http, reference_agent().url)
    for skill_id in SKILL_IDS:
        described = await agent.describe(skill_id)
        path = tmp_path / f"{skill_id}.json"
        path.write_text(json.dumps(described["skill_interface"]))
        assert main(["lint", str(path), "--digest", described["interface_digest"]]) == 0, skill_id
