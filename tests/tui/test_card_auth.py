"""The Overview says, per skill, what the card requires and what sia-tui will send."""

from __future__ import annotations

from typing import Any

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.oauth2 import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET
from sia_tui.core.a2a.options import ClientOptions, OAuth2Settings
from sia_tui.core.redaction import crash_report
from sia_tui.core.run.read_model import Target
from sia_tui.tui.display import MASK
from sia_tui.tui.screens.overview import OverviewScreen
from tests.support.tui import SIZE, press, send_on_console, settle, snapshot_app, static_text

#: The token the reference agent issues in the masking test (a canary: never on screen).
TOKEN = "canary-oauth2-token-7d3a91"


def _skills_text(app: Any) -> str:
    from textual.widgets import OptionList

    skills = app.screen.query_one("#skills", OptionList)
    return "\n".join(str(skills.get_option_at_index(i).prompt) for i in range(skills.option_count))


async def test_overview_says_what_each_skill_requires_and_what_is_sent(
    reference_agent: Any, user_dirs: Any
) -> None:
    """Without credentials each skill reads ✘ with what to give (once, on the connect
    screen); with the OAuth2 client it reads ✔ and "an OAuth2 access token"; the card pane
    names the scheme and requirement."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    bare = snapshot_app(Target(agent.url), dirs=user_dirs)
    async with bare.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(bare.screen, OverviewScreen)
        card = static_text(bare, "#card-body")
        assert "demo-oauth2: OAuth2 (clientCredentials)" in card
        assert "card requires: demo-oauth2" in card
        text = _skills_text(bare)
        said = "give an OAuth2 client id or a Bearer token on the connect screen (c)"
        assert "✘ auth" in text and said in text
        assert text.count("connect screen") == text.count("✘ auth")  # said once per skill
    options = ClientOptions(oauth2=OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))
    given = snapshot_app(Target(agent.url), options, dirs=user_dirs)
    async with given.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = _skills_text(given)
        assert "✔ auth" in text and "an OAuth2 access token" in text
        assert "✘ auth" not in text


def test_snapshot_overview_of_an_oauth2_agent(
    snap_compare: Any, reference_agent: Any, user_dirs: Any
) -> None:
    """The OAuth2-protected reference agent, no credentials given: the card's Security
    schemes section lists 'demo-oauth2: OAuth2 (clientCredentials)', its description and
    'card requires: demo-oauth2 (OAuth2 (clientCredentials), scopes a2a.invoke)'; each skill
    in the list on the right ends with a red '✘ auth' line naming the requirement and
    'nothing is sent: give an OAuth2 client id or a Bearer token on the connect screen
    (c)', said once, not a command-line flag."""
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    app = snapshot_app(Target(agent.url), dirs=user_dirs)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


async def test_an_oauth2_token_fetched_during_the_run_is_masked_on_screen(
    reference_agent: Any, user_dirs: Any, monkeypatch: Any
) -> None:
    """The token is issued at run time, so no option names it: once fetched it is masked
    like the bearer wherever a body shows it (here the Console's raw request, whose text
    carries it, as an agent echoing it would), and a crash report redacts it."""
    from sia_tui.agent import oauth2 as agent_oauth2

    monkeypatch.setattr(agent_oauth2, "new_token", lambda: TOKEN)
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    options = ClientOptions(oauth2=OAuth2Settings(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))
    app = snapshot_app(Target(agent.url), options, dirs=user_dirs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "0")
        await send_on_console(pilot, f"my token is {TOKEN}")
        reply = app.console_state.reply
        assert reply is not None and reply.error is None, reply
        raw = static_text(app, "#reply-body")
        assert "my token is" in raw and MASK in raw
        assert TOKEN not in raw
        # A crash that quotes the token: its report redacts it too.
        report = crash_report(RuntimeError(f"echoed {TOKEN}"), *app.crash_redactors())
        assert "echoed" in report and TOKEN not in report
