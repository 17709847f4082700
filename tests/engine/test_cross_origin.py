"""An interface on another origin than the card: credentials withheld, and the report says so."""

from __future__ import annotations

from typing import Any

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.run.read_model import Target
from tests.support.scripted_agent import BASE, SKILL, ScriptedAgent

OTHER = "http://elsewhere.test"


def moved_agent() -> tuple[ScriptedAgent, list[httpx.Request]]:
    """The scripted agent whose card points its JSON-RPC interface at another origin."""
    agent = ScriptedAgent()
    card = agent.card()
    card["supportedInterfaces"][0]["url"] = f"{OTHER}/rpc"
    agent.card = lambda: card  # type: ignore[method-assign]
    return agent, []


async def run_against(options: ClientOptions) -> tuple[dict[str, Any], list[httpx.Request]]:
    agent, seen = moved_agent()

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return agent.handle(request)

    procedure = Procedure(
        Target(BASE, skill_id=SKILL), options, transport=httpx.MockTransport(handler)
    )
    await procedure.run_until(3)
    await procedure.aclose()
    return run_to_json(procedure.run), seen


async def test_credentials_are_withheld_from_another_origin() -> None:
    """No Authorization or user header reaches elsewhere.test; the report warns."""
    report, seen = await run_against(
        ClientOptions(bearer="tok-123456", headers=(("X-Api-Key", "k-98765"),))
    )
    to_other = [r for r in seen if r.url.host == "elsewhere.test"]
    assert to_other, "describe_skill went to the interface origin"
    assert all("authorization" not in r.headers and "x-api-key" not in r.headers for r in to_other)
    card_request = next(r for r in seen if r.url.host != "elsewhere.test")
    assert card_request.headers["authorization"] == "Bearer tok-123456"
    assert any("withheld" in str(w) for w in report["warnings"])


async def test_allow_cross_origin_sends_them_and_still_warns() -> None:
    """--allow-cross-origin: sent, and the report says they were."""
    report, seen = await run_against(ClientOptions(bearer="tok-123456", allow_cross_origin=True))
    to_other = [r for r in seen if r.url.host == "elsewhere.test"]
    assert to_other and all(r.headers.get("authorization") == "Bearer tok-123456" for r in to_other)
    assert any("credentials are sent" in str(w) for w in report["warnings"])
