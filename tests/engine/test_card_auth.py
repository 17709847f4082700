"""Card-driven authentication: OAuth2 client credentials, API keys, and 401 as a verdict."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import httpx

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, SCHEME_NAME
from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
from sia_tui.core.engine.evidence import Party
from sia_tui.core.engine.model import Run, Step, Target
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.redaction.redact import Redactor
from tests.support.scripted_agent import BASE, SKILL, ScriptedAgent

DEMO = OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET)
EVIL = "http://idp.evil.test"


async def run_reference(url: str, options: ClientOptions) -> Run:
    procedure = Procedure(Target(url, skill_id=SKILL), options)
    procedure.use_example()
    await procedure.run_all()
    await procedure.aclose()
    return procedure.run


async def test_oauth2_token_from_the_cards_token_url_passes(reference_agent: Any) -> None:
    """The OAuth2-protected reference agent: a token from its own endpoint, every step passes,
    and the recorded token exchange holds neither the secret nor the token."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    run = await run_reference(agent.url, ClientOptions(oauth2=DEMO))
    assert run.outcome.value == "passed", run.summary
    token_exchanges = [e for e in run.exchanges if e.purpose == "oauth2 token"]
    assert len(token_exchanges) == 1  # cached: one token for the whole run
    [exchange] = token_exchanges
    assert b"scope=a2a.invoke" in exchange.request_body  # the card's requirement
    assert b"access_token" in exchange.response_body
    sent = next(e for e in run.exchanges if e.purpose == "describe_skill")
    token = dict(sent.request_headers)["Authorization"].removeprefix("Bearer ")
    assert token.encode() not in exchange.response_body
    assert DEMO_CLIENT_SECRET.encode() not in exchange.request_body
    # The token request carries nothing of the agent's: no extension or version header.
    names = {name.lower() for name, _ in exchange.request_headers}
    assert "a2a-version" not in names and "a2a-extensions" not in names


async def test_without_credentials_a_401_is_an_authorization_verdict(
    reference_agent: Any,
) -> None:
    """Nothing sent: step 3 fails blaming the caller, naming the scheme and what was sent,
    never "the agent could not be reached"."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    run = await run_reference(agent.url, ClientOptions())
    failed = run.step(Step.DESCRIBE)
    assert failed.error_kind == "unauthorized"
    assert failed.blame is not None and failed.blame.party is Party.CALLER
    assert SCHEME_NAME in failed.blame.statement and "no credentials" in failed.blame.statement
    assert "could not be reached" not in failed.blame.statement
    assert "--oauth2-client-id" in failed.hint


async def test_wrong_client_secret_says_why_no_token_was_sent(reference_agent: Any) -> None:
    """The token endpoint refuses the client: the 401 verdict says so, blaming the caller."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    wrong = OAuth2Settings(DEMO_CLIENT_ID, "not-the-secret")
    run = await run_reference(agent.url, ClientOptions(oauth2=wrong))
    blame = run.step(Step.DESCRIBE).blame
    assert blame is not None and blame.party is Party.CALLER
    assert "token endpoint answered HTTP 401" in blame.statement


def scripted(card_extra: dict[str, Any]) -> tuple[ScriptedAgent, list[httpx.Request]]:
    agent = ScriptedAgent()
    card = {**agent.card(), **card_extra}
    agent.card = lambda: card  # type: ignore[method-assign]
    return agent, []


def transport(
    agent: ScriptedAgent, seen: list[httpx.Request], idp: Callable[[httpx.Request], httpx.Response]
) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/token"):
            return idp(request)
        return agent.handle(request)

    return httpx.MockTransport(handler)


def token_answer(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"access_token": "tok-abcdef123456", "expires_in": 600})


HOSTILE = {
    "securitySchemes": {
        "m2m": {
            "oauth2SecurityScheme": {
                "flows": {"clientCredentials": {"tokenUrl": f"{EVIL}/token", "scopes": {}}}
            }
        }
    },
    "securityRequirements": [{"schemes": {"m2m": {"list": ["x"]}}}],
}


async def run_scripted(card: dict[str, Any], options: ClientOptions) -> tuple[Run, list[Any]]:
    agent, seen = scripted(card)
    procedure = Procedure(
        Target(BASE, skill_id=SKILL), options, transport=transport(agent, seen, token_answer)
    )
    await procedure.run_until(3)
    await procedure.aclose()
    return procedure.run, seen


async def test_a_hostile_cards_token_url_gets_no_secret() -> None:
    """RULES SR7: a tokenUrl on another host is shown, never sent the secret; the warning
    names --oauth2-token-url."""
    run, seen = await run_scripted(HOSTILE, ClientOptions(oauth2=DEMO))
    assert not [r for r in seen if r.url.host == "idp.evil.test"]
    assert all(DEMO_CLIENT_SECRET.encode() not in r.content for r in seen)
    warning = next(w for w in run.warnings if "idp.evil.test" in w)
    assert "--oauth2-token-url" in warning


async def test_a_user_named_token_url_is_used_and_the_token_goes_to_the_agent_only() -> None:
    """--oauth2-token-url on another host is the user's choice: the secret goes there (Basic),
    the token to the agent's origin, and the IdP sees no agent header."""
    settings = OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, token_url=f"{EVIL}/token")
    _, seen = await run_scripted(HOSTILE, ClientOptions(oauth2=settings, bearer=None))
    [to_idp] = [r for r in seen if r.url.host == "idp.evil.test"]
    basic = base64.b64decode(to_idp.headers["authorization"].removeprefix("Basic ")).decode()
    assert basic == f"{DEMO_CLIENT_ID}:{DEMO_CLIENT_SECRET}"
    assert "a2a-version" not in to_idp.headers
    to_agent = [r for r in seen if r.url.host == "scripted.test"][1:]  # after the card
    assert to_agent and all(
        r.headers["authorization"] == "Bearer tok-abcdef123456" for r in to_agent
    )


async def test_a_401_gets_one_new_token_and_one_retry() -> None:
    """The agent refuses the first token: a second token is fetched, the call retried once,
    and a second refusal is the verdict (no loop)."""
    agent, seen = scripted(HOSTILE)
    tokens = iter(["tok-first-0001", "tok-second-0002", "tok-third-0003"])

    def idp(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"access_token": next(tokens), "expires_in": 600})

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/token"):
            return idp(request)
        if request.method == "POST":
            return httpx.Response(401, json={"error": "invalid_token"})
        return agent.handle(request)

    settings = OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, token_url=f"{EVIL}/token")
    procedure = Procedure(
        Target(BASE, skill_id=SKILL),
        ClientOptions(oauth2=settings),
        transport=httpx.MockTransport(handler),
    )
    await procedure.run_until(3)
    await procedure.aclose()
    posts = [r for r in seen if r.method == "POST" and r.url.host == "scripted.test"]
    assert [r.headers["authorization"] for r in posts] == [
        "Bearer tok-first-0001",
        "Bearer tok-second-0002",
    ]
    assert procedure.run.step(Step.DESCRIBE).error_kind == "unauthorized"


def api_key_card(location: str) -> dict[str, Any]:
    return {
        "securitySchemes": {"key": {"apiKeySecurityScheme": {"location": location, "name": "k"}}},
        "securityRequirements": [{"schemes": {"key": {}}}],
    }


async def test_an_api_key_goes_where_its_scheme_says() -> None:
    """Header, query or cookie, as the card's apiKeySecurityScheme names it."""
    key = "key-5566778899"
    places: dict[str, Callable[[httpx.Request], str | None]] = {
        "header": lambda r: r.headers.get("k"),
        "query": lambda r: r.url.params.get("k"),
        "cookie": lambda r: r.headers.get("cookie", "").partition("k=")[2],
    }
    for location, found in places.items():
        _, seen = await run_scripted(api_key_card(location), ClientOptions(api_key=key))
        after_card = [r for r in seen if r.method == "POST"]
        assert after_card and all(found(r) == key for r in after_card), location


async def test_an_api_key_in_a_query_string_is_redacted() -> None:
    """A key under a parameter name no heuristic knows is still redacted from URLs."""
    options = ClientOptions(api_key="key-5566778899")
    redactor = Redactor.from_options(options)
    assert "key-5566778899" not in redactor.text(f"{BASE}/rpc?k=key-5566778899", "url")


async def test_the_report_says_what_the_skill_requires_and_what_is_sent() -> None:
    """check --json: an ``auth`` member per the skill's plan, names and never values."""
    run, _ = await run_scripted(api_key_card("header"), ClientOptions(api_key="key-5566778899"))
    report = run_to_json(run)
    auth = report["auth"]
    assert auth["requires"] == "key (API key in header k)"
    assert auth["satisfied"] is True
    assert "--api-key" in auth["sends"]
    assert "key-5566778899" not in json.dumps(report)


async def test_the_text_report_says_what_is_required_and_sent(reference_agent: Any) -> None:
    """check's text report: the scheme and scope required, and that nothing was sent."""
    from sia_tui.core.engine.report_text import render_text

    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    text = render_text(await run_reference(agent.url, ClientOptions()))
    assert "auth: requires demo-oauth2 (OAuth2 (clientCredentials), scopes a2a.invoke)" in text
    assert "sends no credentials" in text
    assert "nothing is sent: give --oauth2-client-id" in text
