"""The CP0 gate and CP13: after a failed step nothing more is sent (MockTransport agent)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.run.read_model import StepStatus, Target

BASE = "http://agent.test"


def card(
    *, describe: bool = True, extension: bool = True, digest: str | None = None
) -> dict[str, Any]:
    skills = [{"id": "probe", "name": "Probe", "description": "d", "tags": []}]
    if describe:
        skills.append({"id": "describe_skill", "name": "Describe", "description": "d", "tags": []})
    caps: dict[str, Any] = {"streaming": False}
    if extension:
        caps["extensions"] = [
            {
                "uri": EXTENSION_URI,
                "required": False,
                "params": {
                    "interface_version": "1.0",
                    "skills": [
                        {
                            "skill_id": "probe",
                            "skill_version": "1.0",
                            "interface_digest": digest or digest_of({"x": 1}),
                        }
                    ],
                },
            }
        ]
    return {
        "name": "Gate test",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": f"{BASE}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": caps,
        "defaultInputModes": [],
        "defaultOutputModes": [],
        "skills": skills,
    }


def serve(card_json: dict[str, Any], seen: list[httpx.Request]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/.well-known/agent-card.json":
            return httpx.Response(200, json=card_json)
        body = json.loads(request.content)
        task = {
            "id": "t1",
            "contextId": "c1",
            "status": {
                "state": "TASK_STATE_FAILED",
                "message": {
                    "messageId": "m",
                    "role": "ROLE_AGENT",
                    "parts": [{"data": {"code": "interface_unavailable", "message": "try later"}}],
                },
            },
        }
        return httpx.Response(
            200, json={"jsonrpc": "2.0", "id": body["id"], "result": {"task": task}}
        )

    return httpx.MockTransport(handler)


async def run_procedure(card_json: dict[str, Any]) -> tuple[Procedure, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    procedure = Procedure(
        Target(BASE, skill_id="probe"), ClientOptions(), transport=serve(card_json, seen)
    )
    procedure.set_arguments({"anything": True})
    await procedure.run_all()
    await procedure.aclose()
    return procedure, seen


async def test_no_describe_skill_fails_step_2_and_sends_nothing_more() -> None:
    """RULES CP13, ADV2: skill_not_advertised is local and no describe request is sent."""
    procedure, seen = await run_procedure(card(describe=False))
    steps = procedure.run.steps
    assert steps[0].status is StepStatus.PASSED
    assert steps[1].status is StepStatus.FAILED
    assert steps[1].code == "skill_not_advertised"
    assert steps[1].origin is not None and steps[1].origin.value == "local"
    assert all(s.status is StepStatus.SKIPPED for s in steps[2:])
    assert [r.url.path for r in seen] == ["/.well-known/agent-card.json"]


async def test_no_extension_means_no_conformance() -> None:
    """RULES ADV4: without the extension the procedure stops at step 2."""
    procedure, seen = await run_procedure(card(extension=False))
    assert procedure.run.steps[1].code == "skill_not_advertised"
    assert "ADV4" in procedure.run.steps[1].message
    assert len(seen) == 1


async def test_remote_failure_at_step_3_gates_the_rest() -> None:
    """RULES CP0, DS4: interface_unavailable is remote; nothing is sent after it."""
    procedure, seen = await run_procedure(card())
    step3 = procedure.run.steps[2]
    assert step3.status is StepStatus.FAILED
    assert step3.code == "interface_unavailable"
    assert step3.origin is not None and step3.origin.value == "remote"
    assert all(s.status is StepStatus.SKIPPED for s in procedure.run.steps[3:])
    assert len(seen) == 2


async def test_unknown_skill_is_found_before_any_request() -> None:
    """RULES CP13: a skill the card does not advertise never reaches describe_skill."""
    seen: list[httpx.Request] = []
    procedure = Procedure(
        Target(BASE, skill_id="nope"), ClientOptions(), transport=serve(card(), seen)
    )
    await procedure.run_all()
    await procedure.aclose()
    assert procedure.run.steps[1].code == "skill_not_advertised"
    assert len(seen) == 1
