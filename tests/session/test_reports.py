"""Markdown and HTML bug reports: failing step, digest table, repro request, escaping."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sia_tui.core.session import LoadedSession, load_session, save_session
from sia_tui.core.session.report_html import render_html
from sia_tui.core.session.report_md import md_span, md_text, render_markdown
from tests.support.sessions import ADVERTISED, COMPUTED, canary_options, digest_card_run


@pytest.fixture
def session(tmp_path: Path) -> LoadedSession:
    path = tmp_path / "s.session.json"
    save_session(digest_card_run(), canary_options(), path)
    return load_session(path)


def test_markdown_has_every_section(session: LoadedSession) -> None:
    md = render_markdown(session, "s.session.json")
    assert "FAILED at step 4" in md.splitlines()[2]
    assert "## Failing step 4: Check the interface digest three ways (CP4)" in md
    assert f"| advertised (Agent Card) | `{ADVERTISED}` | — |" in md
    assert f"| computed (JCS + SHA-256) | `{COMPUTED}` | ❌ differs |" in md
    assert "| 4 | `/interface_digest` | CP4 | interface\\_invalid |" in md
    assert "POST http://127.0.0.1:9/agent" in md
    assert 'sia-tui rerun s.session.json --bearer "$TOKEN"' in md
    assert "## Environment" in md and "| httpx |" in md


def test_markdown_neutralises_agent_markup() -> None:
    assert md_text("<img src=x> | *b*") == "\\<img src=x\\> \\| \\*b\\*"
    assert md_span("a`b|c") == "``a`b\\|c``"


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
    assert "passed (11 of 11 steps passed)" in md
    assert "## Failing step" not in md
