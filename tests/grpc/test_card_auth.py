"""Card-driven credentials over gRPC: the OAuth2 token and a header API key in the metadata."""

from __future__ import annotations

from typing import Any

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET
from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Step, Target


async def test_the_oauth2_token_and_api_key_ride_in_the_grpc_metadata(
    reference_agent: Any,
) -> None:
    """The token is fetched over HTTP from the card's origin, then sent as gRPC
    ``authorization`` metadata (the gRPC port is another origin: allowed explicitly); the
    API key goes under its default header name, lowercased as gRPC requires."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01, grpc_port=0))
    options = ClientOptions(
        oauth2=OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET),
        api_key="key-5566778899",
        allow_cross_origin=True,
    )
    target = Target(agent.url, skill_id="evaluate_resource_condition", binding="grpc")
    procedure = Procedure(target, options)
    await procedure.run_until(3)
    await procedure.aclose()
    run = procedure.run
    assert run.step(Step.DESCRIBE).status.value == "passed", run.verdict.summary
    [call] = [e for e in run.exchanges if e.purpose == "describe_skill"]
    metadata = dict(call.request_headers)
    assert metadata["authorization"].startswith("Bearer ")
    assert metadata["x-api-key"] == "key-5566778899"
