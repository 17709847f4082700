"""Bug reports a vendor can act on: one model rendered as Markdown and as HTML."""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from pathlib import Path

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bugreport.exchanges import curl_command
from sia_tui.core.bugreport.report_html import render_html
from sia_tui.core.bugreport.report_markdown import md_span, md_text, render_markdown
from sia_tui.core.exchange import Exchange
from sia_tui.core.session import LoadedSession, load_session, save_session
from tests.support.agents import StartAgent
from tests.support.sessions import COMPUTED, canary_options, digest_card_run, record_live


@pytest.fixture
def session(tmp_path: Path) -> LoadedSession:
    path = tmp_path / "s.session.json"
    save_session(digest_card_run(), canary_options(), path)
    return load_session(path)


@pytest.fixture
async def live_digest_card(reference_agent: StartAgent, tmp_path: Path) -> LoadedSession:
    """A digest-card session recorded over real HTTP, with no credential to redact."""
    agent = reference_agent(fault="digest-card")
    run = await record_live(agent.url, ClientOptions())
    path = tmp_path / "digest-card.session.json"
    save_session(run, ClientOptions(), path)
    return load_session(path)


def test_markdown_has_every_section(session: LoadedSession) -> None:
    md = render_markdown(session, "s.session.json")
    assert "FAILED at step 4" in md.splitlines()[2]
    assert "## Failing step 4: Check the interface digest three ways (CP4)" in md
    assert "| 4 | `/interface_digest` | CP4 | interface\\_invalid |" in md
    assert 'sia-tui rerun s.session.json --bearer "$TOKEN"' in md
    assert "## Environment" in md and "| httpx |" in md
    assert "Credentials were redacted from the session" in md  # there was a bearer


def test_markdown_neutralises_agent_markup() -> None:
    assert md_text("<img src=x> | *b*") == "\\<img src=x\\> \\| \\*b\\*"
    assert md_span("a`b|c") == "``a`b\\|c``"


def test_reports_are_printable_whatever_the_run_says(tmp_path: Path) -> None:
    """``html.escape`` and code spans leave ESC, C1 and bidi controls
    alone; a report printed to a terminal, or opened in one, must carry none."""
    run = digest_card_run()
    inject = "\x1b]52;c;cHduZWQ=\x07\x9b2J\u202e\r"
    failed = run.steps[3]
    failed.message += inject
    failed.hint += inject
    finding = failed.findings[0]
    failed.findings[0] = replace(
        finding, pointer=finding.pointer + inject, message=finding.message + inject
    )
    run.warnings.append(inject)
    path = tmp_path / "s.session.json"
    save_session(run, canary_options(), path)
    loaded = load_session(path)
    for text in (render_markdown(loaded, path.name), render_html(loaded, path.name)):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", text)
        assert "␛]52;c;cHduZWQ=␇\\u009b2J\\u202e␍" in text


def test_html_is_self_contained_and_escaped(session: LoadedSession) -> None:
    page = render_html(session, "s.session.json")
    assert "<script" not in page and "<b>agent</b>" not in page
    assert "&lt;b&gt;agent&lt;/b&gt;" in page
    assert not re.search(r"(src|href)=", page)
    assert "default-src 'none'" in page
    assert "Failing step 4" in page and COMPUTED in page


def test_report_of_a_passing_run(tmp_path: Path) -> None:
    run = digest_card_run()
    for step in run.steps:
        step.status = step.status.PASSED
        step.code = None
    path = tmp_path / "p.json"
    save_session(run, canary_options(), path)
    md = render_markdown(load_session(path), "p.json")
    assert "PASSED: all eleven steps passed" in md
    assert "## Failing step" not in md and "## Who is at fault" not in md


# -- a report a vendor can act on ---------------------------------------------------------------
def test_the_report_names_the_party_at_fault_as_the_tui_does(
    live_digest_card: LoadedSession,
) -> None:
    """digest-card: the card's advertised digest is the odd one out, in the same words the
    TUI's Steps screen and check use; the digest table does not blame the two that agree."""
    md = render_markdown(live_digest_card, "d.session.json")
    blame = live_digest_card.run.verdict.at_fault
    assert blame is not None
    assert "the card's advertised digest differs from both the returned and the computed one" in (
        blame.statement
    )
    assert f"- at fault: agent: {md_text(blame.statement)}" in md
    digest_rows = [line for line in md.splitlines() if line.startswith("| returned (describe")]
    assert digest_rows and "❌" not in digest_rows[0] and "= computed" in digest_rows[0]


def test_the_report_quotes_the_card_exchange_and_reproduces_it_with_curl(
    live_digest_card: LoadedSession,
) -> None:
    """For a card fault the exchange shown is the card GET, with its raw response body, a
    curl command, and that GET as the minimal request that reproduces the step."""
    md = render_markdown(live_digest_card, "d.session.json")
    run = live_digest_card.run
    card = run.exchanges[0]
    assert card.purpose == "agent card"
    shown = md.split("## The exchange that shows it", 1)[1].split("## Minimal request", 1)[0]
    assert f"Exchange 1 (agent card): GET {md_text(card.url)} answered HTTP 200" in shown
    assert "Exchange 2" not in shown  # describe_skill's answer agrees with the document
    assert run.digests.advertised is not None and run.digests.advertised in shown
    repro = md.split("## Minimal request that reproduces", 1)[1].split("## Re-run", 1)[0]
    text = repro.split("```sh\n", 1)[1].split("\n```", 1)[0]
    command = shlex.split(text.replace("\\\n", " "))  # the shell's line continuations
    assert command[:3] == ["curl", "-sS", card.url]
    assert "-X" not in command and "--data-raw" not in command  # a plain GET
    assert "A2A-Version: 1.0" in command


def test_the_report_hints_need_no_sia_tui_and_no_redaction_notice_without_redactions(
    live_digest_card: LoadedSession,
) -> None:
    """Hints a vendor can follow (no inspector, no key to press); nothing was redacted, so
    no notice says it was."""
    md = render_markdown(live_digest_card, "d.session.json")
    assert "inspector" not in md and "press " not in md
    assert "- what to do: Publish in the Agent Card the digest of the document" in md
    assert "redacted" not in md


def test_markdown_and_html_come_from_one_model(live_digest_card: LoadedSession) -> None:
    """The same sections, in the same order, with the same summary, in both formats."""
    md = render_markdown(live_digest_card, "d.session.json")
    page = render_html(live_digest_card, "d.session.json")
    md_titles = re.findall(r"^## (.+)$", md, flags=re.M)
    html_titles = re.findall(r"<h2>(.+?)</h2>", page)
    assert [t.replace("\\", "") for t in md_titles] == html_titles
    assert "curl -sS" in page and "at fault" in page


def test_curl_reproduces_a_post_with_redacted_credentials_as_variables() -> None:
    """The body byte for byte; a redacted header becomes a variable the user exports."""
    exchange = Exchange(
        seq=2,
        purpose="describe_skill",
        method="POST",
        url="https://agent.example/a2a/jsonrpc",
        request_headers=(
            ("Authorization", "«redacted:authorization»"),
            ("Content-Type", "application/json"),
            ("Content-Length", "21"),
        ),
        request_body=b'{"it\'s": "JSON"}',
    )
    command = shlex.split(curl_command(exchange).replace("\\\n", " "))
    assert command == [
        "curl",
        "-sS",
        "-X",
        "POST",
        "https://agent.example/a2a/jsonrpc",
        "-H",
        "Authorization: $AUTHORIZATION",  # the shell expands it in double quotes
        "-H",
        "Content-Type: application/json",
        "--data-raw",
        '{"it\'s": "JSON"}',
    ]
    assert '-H "Authorization: $AUTHORIZATION"' in curl_command(exchange)
