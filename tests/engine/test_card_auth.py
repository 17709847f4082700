"""Card-driven authentication: OAuth2 client credentials, API keys, and 401 as a verdict."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, SCHEME_NAME
from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.redaction.redact import Redactor
from sia_tui.core.run.evidence import Party
from sia_tui.core.run.read_model import Run, Step, Target
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
    assert run.verdict.outcome.value == "passed", run.verdict.summary
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


@pytest.mark.usefixtures("cli_wording")
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


@pytest.mark.usefixtures("cli_wording")
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


@pytest.mark.usefixtures("cli_wording")
async def test_the_report_says_what_the_skill_requires_and_what_is_sent() -> None:
    """check --json: an ``auth`` member per the skill's plan, names and never values."""
    run, _ = await run_scripted(api_key_card("header"), ClientOptions(api_key="key-5566778899"))
    report = run_to_json(run)
    auth = report["auth"]
    assert auth["requires"] == "key (API key in header k)"
    assert auth["satisfied"] is True
    assert "--api-key" in auth["sends"]
    assert "key-5566778899" not in json.dumps(report)


@pytest.mark.usefixtures("cli_wording")
async def test_the_text_report_says_what_is_required_and_sent(reference_agent: Any) -> None:
    """check's text report: the scheme and scope required, and that nothing was sent."""
    from sia_tui.core.engine.report_text import render_text

    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    text = render_text(await run_reference(agent.url, ClientOptions()))
    assert "auth: requires demo-oauth2 (OAuth2 (clientCredentials), scopes a2a.invoke)" in text
    assert "sends no credentials" in text
    assert "nothing is sent: give --oauth2-client-id" in text


def test_cli_oauth2_flags_need_a_secret_and_exclude_bearer(
    capsys: Any, monkeypatch: Any, tmp_path: Any
) -> None:
    """--oauth2-client-id without a secret, or with --bearer, is a usage error (exit 2);
    the secret file is read when given."""
    from sia_tui.cli.parser import run as cli

    monkeypatch.delenv("SIA_TUI_OAUTH2_CLIENT_SECRET", raising=False)
    base = ["check", "http://127.0.0.1:9/", "--oauth2-client-id", DEMO_CLIENT_ID]
    assert cli(base) == 2
    assert "SIA_TUI_OAUTH2_CLIENT_SECRET" in capsys.readouterr().err
    monkeypatch.setenv("SIA_TUI_OAUTH2_CLIENT_SECRET", DEMO_CLIENT_SECRET)
    assert cli([*base, "--bearer", "tok-1234"]) == 2
    assert "not both" in capsys.readouterr().err
    missing = str(tmp_path / "nothing")
    assert cli([*base, "--oauth2-client-secret-file", missing]) == 2
    assert "--oauth2-client-secret-file" in capsys.readouterr().err


def test_cli_check_json_against_the_oauth2_agent(
    reference_agent: Any, capsys: Any, monkeypatch: Any, tmp_path: Any
) -> None:
    """check --json: without credentials exit 1, the caller at fault, error_kind
    unauthorized; with the demo client from a secret file, exit 0 and the plan satisfied."""
    from sia_tui.cli.parser import run as cli

    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    base = ["check", agent.url, "--skill", SKILL, "--args", "example", "--json"]
    assert cli(base) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["at_fault"]["party"] == "caller"
    assert report["auth"]["satisfied"] is False
    assert any(s.get("error_kind") == "unauthorized" for s in report["steps"])
    secret = tmp_path / "secret"
    secret.write_text(DEMO_CLIENT_SECRET + "\n")
    given = ["--oauth2-client-id", DEMO_CLIENT_ID, "--oauth2-client-secret-file", str(secret)]
    assert cli([*base, *given]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["auth"]["satisfied"] is True
    assert report["auth"]["sends"] == "an OAuth2 access token (client credentials)"


async def test_an_authenticated_run_fetches_and_uses_the_extended_card(
    reference_agent: Any,
) -> None:
    """capabilities.extendedAgentCard and credentials: GetExtendedAgentCard is sent with the
    token, step 1's evidence says what it adds, and the run goes on with it."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    run = await run_reference(agent.url, ClientOptions(oauth2=DEMO))
    assert run.verdict.outcome.value == "passed", run.verdict.summary
    [fetched] = [e for e in run.exchanges if e.purpose == "extended agent card"]
    assert fetched.http_status == 200
    assert dict(fetched.request_headers)["Authorization"].startswith("Bearer ")
    assert run.card is not None and run.card.description.endswith("(authenticated view)")
    evidence = run.step(Step.CARD).evidence
    assert getattr(evidence, "extended_card", None) == "changes description"


async def test_without_credentials_the_extended_card_is_only_mentioned(
    reference_agent: Any,
) -> None:
    """No credentials: nothing is asked for, and a warning says how to fetch it."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    run = await run_reference(agent.url, ClientOptions())
    assert not [e for e in run.exchanges if e.purpose == "extended agent card"]
    assert any("extended card to authenticated clients" in w for w in run.warnings)


async def test_the_extended_card_over_http_json(reference_agent: Any) -> None:
    """The HTTP+JSON binding: GET /extendedAgentCard."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    procedure = Procedure(
        Target(agent.url, skill_id=SKILL, binding="http-json"), ClientOptions(oauth2=DEMO)
    )
    await procedure.run_until(1)
    await procedure.aclose()
    [fetched] = [e for e in procedure.run.exchanges if e.purpose == "extended agent card"]
    assert fetched.method == "GET" and fetched.url.endswith("/a2a/rest/extendedAgentCard")
    assert fetched.http_status == 200


async def test_the_console_sends_the_token_the_card_asks_for(reference_agent: Any) -> None:
    """The plain A2A console reaches the OAuth2 agent too: its message carries a token."""
    from sia_tui.core.engine.console import ConsoleRequest, PartKind

    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions(oauth2=DEMO))
    await procedure.run_until(1)
    reply = await procedure.console(ConsoleRequest(PartKind.TEXT, "hello", "sync", None))
    await procedure.aclose()
    sent = [e for e in reply.exchanges if e.purpose == "console"]
    assert sent and sent[0].http_status != 401
    assert dict(sent[0].request_headers)["Authorization"].startswith("Bearer ")
