"""The missing-credentials probe (RULES INV4), where credentials may go (SR7), and the safety
rule: without permission, nothing an agent could act on reaches an execute skill."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.results import Grade, ProbeKind, ProbeReport
from sia_tui.core.schemas.validation import compile_schema
from tests.support.agents import StartAgent
from tests.support.probe import probe
from tests.support.scripted_agent import BASE, ScriptedAgent, completed_task, task

TOKEN = "probe-token-81c2"


class SecuredAgent(ScriptedAgent):
    """The scripted agent with a bearer scheme in its card; how it treats a caller without
    the token is the test's choice: "task" (REJECTED authorization_failed), "http" (401)
    or "ignore" (it acts anyway)."""

    def __init__(self, refusal: str) -> None:
        super().__init__(invoke=completed_task)
        self.refusal = refusal
        self.seen: list[httpx.Request] = []

    def card(self) -> dict[str, Any]:
        card = super().card()
        card["securitySchemes"] = {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}
        card["securityRequirements"] = [{"schemes": {"bearer": {"list": []}}}]
        return card

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        authorized = request.headers.get("authorization") == f"Bearer {TOKEN}"
        if authorized or request.url.path.startswith("/.well-known/") or self.refusal == "ignore":
            return super().handle(request)
        if self.refusal == "http":
            return httpx.Response(401, headers={"www-authenticate": "Bearer"})
        envelope = json.loads(request.content)
        refused = task(
            "TASK_STATE_REJECTED",
            status_data=[{"code": "authorization_failed", "message": "who are you?"}],
        )
        return httpx.Response(
            200, json={"jsonrpc": "2.0", "id": envelope["id"], "result": {"task": refused}}
        )


async def _probe_secured(refusal: str) -> tuple[ProbeReport, SecuredAgent]:
    agent = SecuredAgent(refusal)
    report = await probe(BASE, transport=agent.transport(), options=ClientOptions(bearer=TOKEN))
    return report, agent


@pytest.mark.parametrize(
    ("refusal", "expected"),
    [("task", Grade.PASS), ("http", Grade.WARN), ("ignore", Grade.FAIL)],
)
async def test_missing_credentials_is_graded_by_how_the_agent_refuses(
    refusal: str, expected: Grade
) -> None:
    """RULES INV4: REJECTED authorization_failed passes; HTTP 401 (how A2A itself refuses)
    warns; acting for a caller without credentials fails."""
    report, agent = await _probe_secured(refusal)
    assert report.learned
    (result,) = [r for r in report.results if r.kind is ProbeKind.MISSING_CREDENTIALS]
    assert result.grade is expected, result.reason
    assert result.sent is not None and not result.sent.credentials
    # Only that probe went without the token; every other request carried it.
    without = [r for r in agent.seen if "authorization" not in r.headers]
    assert len(without) == len(result.exchanges) >= 1
    assert all(
        json.loads(r.content)["params"]["message"]["parts"][0]["data"]["arguments"]
        == result.sent.data["arguments"]
        for r in without
    )


async def test_credentials_never_follow_the_probes_to_another_origin() -> None:
    """RULES SR7: as in the Procedure, the token goes to the card's origin only."""
    agent = ScriptedAgent(invoke=completed_task)
    card = agent.card()
    card["supportedInterfaces"][0]["url"] = "http://elsewhere.test/rpc"
    agent.card = lambda: card  # type: ignore[method-assign]
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return agent.handle(request)

    report = await probe(
        BASE, transport=httpx.MockTransport(handler), options=ClientOptions(bearer=TOKEN)
    )
    assert report.results, "the probes ran"
    elsewhere = [r for r in seen if r.url.host == "elsewhere.test"]
    assert elsewhere and all("authorization" not in r.headers for r in elsewhere)


def _invocations(report: ProbeReport, skill: str) -> list[dict[str, Any]]:
    """Every skill request object sent to ``skill`` (learning run and probes)."""
    sent = []
    for exchange in report.all_exchanges():
        if exchange.method != "POST":
            continue
        body = json.loads(exchange.request_body)
        message = body.get("params", body).get("message", {})
        data = message["parts"][0]["data"]
        if data.get("skill") == skill:
            sent.append(data)
    return sent


async def test_an_execute_skill_gets_no_valid_invocation_without_permission(
    reference_agent: StartAgent,
) -> None:
    """The safety rule: apply_interface_shutdown declares execute authority. Without
    permission no baseline runs and every request to it carries arguments its input schema
    rejects (or none, where an empty request is invalid too): nothing can act."""
    report = await probe(reference_agent().url, "apply_interface_shutdown")
    assert report.learned and "execute authority" in report.baseline_skipped
    schema = compile_schema(
        report.learning.document["input_schema"]["resolution"]["schema"]  # type: ignore[index]
    )
    requests = _invocations(report, "apply_interface_shutdown")
    assert len(requests) >= 5
    for data in requests:
        assert not schema.is_valid(data.get("arguments", {})), data
    assert report.learning.task is None  # steps 7-11 sent nothing
    skipped = {r.id: r.reason for r in report.results if r.grade is Grade.SKIP}
    assert "allow valid invocations" in skipped["oversized-input"] or (
        skipped["oversized-input"] == "the document declares no max_input_bytes"
    )


async def test_allowing_valid_invocations_runs_the_baseline_of_an_execute_skill(
    reference_agent: StartAgent,
) -> None:
    report = await probe(reference_agent().url, "apply_interface_shutdown", allow_valid=True)
    assert report.baseline_skipped == ""
    assert report.learning.task is not None
    assert report.learning.task.state == "TASK_STATE_COMPLETED"
    assert report.outcome == "passed"


async def test_missing_credentials_runs_against_the_oauth2_reference_agent(
    reference_agent: StartAgent,
) -> None:
    """The OAuth2-protected reference agent: learning and the baseline carry a token fetched
    from its own endpoint; the missing-credentials probe goes without one and meets the 401
    A2A refuses with (a warning, RULES INV4), not a transport failure."""
    from sia_tui.agent.config import AgentConfig
    from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET
    from sia_tui.core.a2a.options import OAuth2Settings

    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    options = ClientOptions(oauth2=OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))
    report = await probe(agent.url, options=options, allow_valid=True)
    assert report.learned
    (result,) = [r for r in report.results if r.kind is ProbeKind.MISSING_CREDENTIALS]
    assert result.grade is Grade.WARN, result.reason
    statuses = [e.http_status for e in report.exchanges if e.seq in result.exchanges]
    assert statuses == [401]
    # Every other probe carried the token: the agent read them (no 401).
    others = {seq for r in report.results if r is not result for seq in r.exchanges}
    assert others
    assert all(e.http_status != 401 for e in report.exchanges if e.seq in others)
