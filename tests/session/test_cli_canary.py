"""End to end through the real CLI: check --save, report, replay; canaries never surface."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from sia_tui.cli.parser import run as cli
from tests.hostile.honest import SKILL
from tests.hostile.measure import serving
from tests.support.agents import StartAgent
from tests.support.disguises import leaked
from tests.support.plugfest import plugfest_file
from tests.support.sessions import (
    CANARIES,
    CANARY_ARGUMENT,
    CANARY_BEARER,
    CANARY_HEADER,
    CANARY_QUERY,
    CANARY_USERINFO,
)


@pytest.mark.usefixtures("log_redaction")
def test_check_save_report_replay_leak_nothing(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A canary through every input path (header, bearer, URL userinfo, query token, an
    argument value marked --secret) reaches no file, report, stdout, stderr or log.
    RULES ERR6: details and bodies echoing a secret value are redacted too."""
    caplog.set_level(logging.DEBUG)
    arguments = tmp_path / "args.json"
    arguments.write_text(
        json.dumps(
            {
                "resource_id": CANARY_ARGUMENT,
                "condition": {
                    "metric": "utilization",
                    "operator": "gte",
                    "threshold": 80,
                    "unit": "percent",
                },
            }
        )
    )
    agent = reference_agent(fault="digest-card")
    url = (
        agent.url.replace("http://", f"http://alice:{CANARY_USERINFO}@")
        + f"/.well-known/agent-card.json?token={CANARY_QUERY}"
    )
    session = tmp_path / "s.session.json"
    assert (
        cli(
            [
                "check",
                url,
                "--skill",
                "evaluate_resource_condition",
                "--bearer",
                CANARY_BEARER,
                "--header",
                f"X-Tenant-Key: {CANARY_HEADER}",
                "--save",
                str(session),
                "--args",
                str(arguments),
                "--secret",
                CANARY_ARGUMENT,
            ]
        )
        == 1
    )
    agent.stop()
    report_md, report_html = tmp_path / "r.md", tmp_path / "r.html"
    report_har = tmp_path / "r.har"
    # Each exits with the session's verdict (whatever it was); none fails to write.
    assert cli(["report", str(session), "-o", str(report_md)]) != 2
    assert cli(["report", str(session), "--format", "html", "-o", str(report_html)]) != 2
    assert cli(["report", str(session), "--format", "har", "-o", str(report_har)]) != 2
    assert cli(["replay", str(session), "--json"]) != 2
    out, err = capsys.readouterr()
    texts = {
        "session": session.read_text(encoding="utf-8"),
        "stdout": out,
        "stderr": err,
        "logs": caplog.text,
        "markdown": report_md.read_text(encoding="utf-8"),
        "html": report_html.read_text(encoding="utf-8"),
        "har": report_har.read_text(encoding="utf-8"),
    }
    for where, text in texts.items():
        assert not [c for c in CANARIES if c in text], where
    assert "FAILED at step 4" in texts["markdown"]
    assert "«redacted:authorization»" in texts["session"]
    assert "«redacted:authorization»" in texts["har"]  # the header is there, its value not


@pytest.mark.usefixtures("log_redaction")
def test_matrix_keeps_plugfest_credentials_out_of_httpx_debug_lines(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`matrix` takes its token from the plugfest file, not from a flag: the filter the CLI
    installs as it starts learns it from each client. The agent echoes the token in a
    response header, which httpcore logs at DEBUG; the log holds it in no form."""
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("PLUGFEST_TOKEN", CANARY_BEARER)
    with serving("echo-secrets") as server:
        path = plugfest_file(
            tmp_path,
            {},
            f'[[agent]]\nname = "a"\ncard = "{server.url}"\nbearer_env = "PLUGFEST_TOKEN"\n'
            f'[[skill]]\nid = "{SKILL}"',
            head='bindings = ["JSONRPC"]\nmodes = ["sync"]',
        )
        cli(["matrix", str(path), "--json", "--env", "PLUGFEST_TOKEN"])
    capsys.readouterr()
    echoed = [r.getMessage() for r in caplog.records if "X-Echo" in r.getMessage()]
    assert echoed, "the agent's echo reached no httpcore debug line: the test shows nothing"
    assert leaked(caplog.text, {"bearer": CANARY_BEARER}) == {}


CANARY_CLIENT_SECRET = "canary-oauth2-secret-7f3e9a"
CANARY_TOKEN = "canary-oauth2-token-5b2d8c"
CANARY_API_KEY = "canary-api-key-1c4f6e"


@pytest.mark.usefixtures("log_redaction")
def test_oauth2_client_secret_token_and_api_key_leak_nowhere(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """OAuth2 against the protected reference agent: the client secret (from the
    environment), the token it issues and an API key reach no session, report, stdout,
    stderr or log, though the token exchange is recorded and the run passes."""
    from sia_tui.agent import oauth2 as agent_oauth2
    from sia_tui.agent.config import AgentConfig

    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr(agent_oauth2, "DEMO_CLIENT_SECRET", CANARY_CLIENT_SECRET)
    monkeypatch.setattr(agent_oauth2, "new_token", lambda: CANARY_TOKEN)
    monkeypatch.setenv("SIA_TUI_OAUTH2_CLIENT_SECRET", CANARY_CLIENT_SECRET)
    agent = reference_agent(AgentConfig(oauth2=True, step_delay=0.01))
    session = tmp_path / "s.session.json"
    common = ["--oauth2-client-id", agent_oauth2.DEMO_CLIENT_ID, "--api-key", CANARY_API_KEY]
    assert (
        cli(
            [
                "check",
                agent.url,
                "--skill",
                "evaluate_resource_condition",
                "--args",
                "example",
                "--json",
                "--save",
                str(session),
                *common,
            ]
        )
        == 0
    )
    agent.stop()
    report_md = tmp_path / "r.md"
    assert cli(["report", str(session), "-o", str(report_md)]) != 2  # the verdict's status
    assert cli(["replay", str(session), "--json"]) != 2
    out, err = capsys.readouterr()
    texts = {
        "session": session.read_text(encoding="utf-8"),
        "stdout": out,
        "stderr": err,
        "logs": caplog.text,
        "markdown": report_md.read_text(encoding="utf-8"),
    }
    secrets = {
        "client secret": CANARY_CLIENT_SECRET,
        "token": CANARY_TOKEN,
        "api key": CANARY_API_KEY,
    }
    for where, text in texts.items():
        assert leaked(text, secrets) == {}, where
    assert '"oauth2 token"' in texts["session"]  # the token exchange is recorded, redacted
