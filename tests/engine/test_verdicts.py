"""Verdicts a user can trust (issue 10): each test reproduces a wrong or hidden verdict.

Every test here drives the real reference agent over HTTP through the CLI or the engine,
and asserts what a user would read: the outcome, the exit code, the step that failed,
who is at fault and what to do next.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.runner import RunningAgent, start_agent
from sia_tui.cli import main

SKILL = "evaluate_resource_condition"
#: The draft's Appendix B arguments (WIRE.md).
ARGUMENTS = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"},
}


@pytest.fixture
def args_file(tmp_path: Path) -> str:
    path = tmp_path / "args.json"
    path.write_text(json.dumps(ARGUMENTS), encoding="utf-8")
    return str(path)


@pytest.fixture
def agents() -> Iterator[list[RunningAgent]]:
    """Agents a test starts itself (to restart one on the same port); all stopped after."""
    started: list[RunningAgent] = []
    yield started
    for agent in started:
        agent.stop()


def start(started: list[RunningAgent], fault: str | None = None, port: int = 0) -> RunningAgent:
    agent = start_agent(AgentConfig(fault=fault, step_delay=0.02), port=port)
    started.append(agent)
    return agent


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    """``sia-tui check ... --json``: the exit code and the report."""
    code = main(["check", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


# -- item 1: a cache must never hide a broken agent ------------------------------------------
@pytest.mark.parametrize("fault", ["unavailable", "malformed"])
def test_check_shows_what_the_agent_does_now_not_what_the_cache_remembers(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], args_file: str, fault: str
) -> None:
    """check passes, the agent restarts broken on the same port, the same check fails at
    step 3: without --cache the document is fetched every time (RULES CP12 is opt-in)."""
    agent = start(agents)
    url = agent.url
    code, report = check(capsys, url, "--skill", SKILL, "--args", args_file)
    assert (code, report["outcome"]) == (0, "passed")
    agent.stop()
    port = int(url.rsplit(":", 1)[1])
    start(agents, fault, port=port)
    code, report = check(capsys, url, "--skill", SKILL, "--args", args_file)
    assert code == 1 and report["outcome"] == "failed"
    assert report["error"]["step"] == 3 and report["from_cache"] is False


def test_cache_when_asked_for_is_said_in_the_outcome_and_the_session(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--cache reuses the bound document (RULES CP12); the outcome and the saved session say
    so, and describe_skill is not called."""
    url = start(agents).url
    check(capsys, url, "--skill", SKILL, "--cache")
    session = tmp_path / "cached.session.json"
    code = main(["check", url, "--skill", SKILL, "--cache", "--save", str(session)])
    out = capsys.readouterr().out
    assert code == 3  # steps 7-11 did not run: incomplete, never a pass
    assert "the document came from the cache (describe_skill was not called" in out
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["document_from_cache"] is True
    assert "describe_skill" not in [e["purpose"] for e in saved["exchanges"]]
