"""Verdicts a user can trust: each test reproduces a wrong or hidden verdict.

Every test here drives the real reference agent over HTTP through the CLI or the engine,
and asserts what a user would read: the outcome, the exit code, the step that failed,
who is at fault and what to do next.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import fault_named
from sia_tui.agent.serving import RunningAgent, start_agent
from sia_tui.cli import main
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session import history
from sia_tui.core.session.json_changes import json_diff
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

SKILL = "evaluate_resource_condition"
#: The draft's Appendix B arguments (WIRE.md).
ARGUMENTS = APPENDIX_B_ARGUMENTS


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
    config = AgentConfig(fault=fault_named(fault) if fault else None, step_delay=0.02)
    agent = start_agent(config, port=port)
    started.append(agent)
    return agent


async def invoke(url: str, arguments: Any, *, anyway: bool = False, skill: str = SKILL) -> Run:
    """All eleven steps through the engine (``anyway``: a deliberate negative test)."""
    procedure = Procedure(Target(url, skill_id=skill), ClientOptions())
    procedure.set_arguments(arguments, send_anyway=anyway)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    """``sia-tui check ... --json``: the exit code and the report."""
    code = main(["check", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


# -- a cache must never hide a broken agent --------------------------------------------------
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


# -- a partial run is incomplete, never a pass; --args example runs all eleven -----------------
def test_without_arguments_the_run_is_incomplete_not_passed(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str]
) -> None:
    """Steps 7-11 never ran: outcome INCOMPLETE, exit 3, in text as in JSON."""
    url = start(agents).url
    code = main(["check", url, "--skill", SKILL])
    out = capsys.readouterr().out
    assert code == 3
    assert "outcome: INCOMPLETE: steps 7-11 did not run: no arguments were given" in out
    assert "PASSED" not in out


def test_args_example_runs_all_eleven_steps_headless(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str]
) -> None:
    """--args example takes the input schema's first example: eleven steps, exit 0."""
    url = start(agents).url
    code, report = check(capsys, url, "--skill", SKILL, "--args", "example")
    assert (code, report["outcome"]) == (0, "passed")
    assert [s["status"] for s in report["steps"]] == ["passed"] * 11
    assert report["steps"][6]["evidence"]["example_source"] == "the input schema's examples[0]"


def test_args_example_reveals_the_mismatch_fault_a_partial_run_hid(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's mismatch fault is only visible at step 8: --args example gets there."""
    url = start(agents, "mismatch").url
    code, report = check(capsys, url, "--skill", SKILL, "--args", "example")
    assert (code, report["outcome"]) == (1, "failed")
    error = report["error"]
    assert (error["step"], error["code"], error["origin"]) == (8, "interface_mismatch", "remote")


def test_args_example_without_an_example_is_a_usage_error(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str]
) -> None:
    """admit_traffic_demand's input schema declares no examples: exit 2, and why."""
    url = start(agents).url
    code, report = check(capsys, url, "--skill", "admit_traffic_demand", "--args", "example")
    assert code == 2
    assert report["error"]["step"] == 7 and report["error"]["category"] == "usage"
    assert "no example arguments" in report["error"]["message"]


async def test_example_falls_back_to_a_json_example_of_the_card_skill(
    agents: list[RunningAgent],
) -> None:
    """No schema example: the card skill's first example that is JSON (prose is skipped)."""
    procedure = Procedure(
        Target(start(agents).url, skill_id="admit_traffic_demand"), ClientOptions()
    )
    try:
        run = await procedure.run_until(6)
    finally:
        await procedure.aclose()
    assert run.card is not None and run.answers.example_arguments is None
    value = {"link_id": "link-7", "available_mbps": 250, "unit": "Mbit/s"}
    run.card = replace(
        run.card,
        skills=tuple(
            replace(s, examples=("admit 100 Mbit/s on link-7", json.dumps(value)))
            if s.id == "admit_traffic_demand"
            else s
            for s in run.card.skills
        ),
    )
    example = run.answers.example_arguments
    assert example is not None
    assert (example.value, example.source) == (value, "the card skill's examples[1]")


# The fault table (`check --args example` against each fault) is tests/engine/test_faults.py.


# -- the root is "", never "/" (RFC 6901: "/" is the member named "") --------------------------
def test_a_missing_member_at_the_root_is_not_reported_at_slash(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Arguments without resource_id: the finding is at the root, shown as "" (root)."""
    path = tmp_path / "args.json"
    path.write_text(json.dumps({"condition": ARGUMENTS["condition"]}), encoding="utf-8")
    url = start(agents).url
    code = main(["check", url, "--skill", SKILL, "--args", str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert '- "" (root): ' in out and "resource_id" in out
    assert "- /:" not in out and "first: /" not in out and "first at /" not in out


async def test_the_agents_own_message_names_the_root_too(agents: list[RunningAgent]) -> None:
    """The reference agent's input_invalid message says "" (root), like the client."""
    run = await invoke(start(agents).url, {"condition": ARGUMENTS["condition"]}, anyway=True)
    error = run.answers.task_error
    assert error is not None and error.code == "input_invalid"
    assert 'first at "" (root)' in error.message


def test_a_body_replaced_whole_is_a_change_at_the_root() -> None:
    """rerun's body diff stores the root as "" and prints it as "" (root)."""
    [change] = json_diff(1, 2)
    assert change.pointer == "" and change.describe() == 'changed "" (root): 1 -> 2'


# -- interface_mismatch for exactly what the agent published is the agent's fault -------------
def test_mismatch_on_its_own_interface_blames_the_agent_not_a_stale_card(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], args_file: str
) -> None:
    """The agent rejects the version and digest it advertised and returned itself: the
    hint says so and does not advise re-fetching."""
    url = start(agents, "mismatch").url
    code = main(["check", url, "--skill", SKILL, "--args", args_file])
    out = capsys.readouterr().out
    assert code == 1
    next_line = next(line for line in out.splitlines() if line.strip().startswith("next:"))
    assert "re-fetching will not help" in next_line
    assert "Re-fetch" not in out and "run describe_skill again" not in out
    assert "the agent rejects its own interface" in out
    code, report = check(capsys, url, "--skill", SKILL, "--args", args_file)
    sent = report["steps"][7]["evidence"]
    assert sent["interface_digest"] == report["digests"]["advertised"]
    assert sent["interface_digest"] == report["digests"]["returned"]


# -- correct agent behaviour is a passed expectation, not a failure ---------------------------
INVALID = {**ARGUMENTS, "condition": {**ARGUMENTS["condition"], "threshold": "eighty"}}


async def test_a_rightly_rejected_negative_test_passes(
    agents: list[RunningAgent], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Send anyway, the agent rejects with input_invalid (RULES INV3): nothing failed, the
    outcome is negative_test_passed, steps 9-11 are skipped, and history records that."""
    run = await invoke(start(agents).url, INVALID, anyway=True)
    assert run.failed_step is None
    assert run.verdict.outcome == "negative_test_passed" and run.verdict.outcome.exit_code == 0
    assert [s.status.value for s in run.steps] == ["passed"] * 8 + ["skipped"] * 3
    assert run.steps[6].message.startswith("deliberate negative test: 1 input error(s)")
    assert "as the deliberate negative test expects" in run.steps[7].message
    assert run.steps[8].message == "not needed: the negative test ended at step 8 as expected"
    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(tmp_path / "data"))
    history.autosave(run, ClientOptions())
    [entry] = history.list_history()
    assert (entry.outcome, entry.failed_step) == ("negative_test_passed", None)


async def test_a_cancel_the_user_asked_for_is_cancelled_not_failed(
    agents: list[RunningAgent], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The long-running skill is cancelled mid-stream: step 9 is cancelled, no ERR1 warning
    against the reference agent, and history records the run as cancelled."""
    agent = start_agent(AgentConfig(step_delay=0.5))
    agents.append(agent)
    target = Target(agent.url, skill_id="check_link_capacity", mode="stream")
    procedure = Procedure(target, ClientOptions())
    procedure.set_arguments({"link_id": "link-7", "required_mbps": 400})
    try:
        await procedure.run_until(8)
        receiving = asyncio.ensure_future(procedure.run_all())
        cancelled = await procedure.cancel()
        run = await receiving
    finally:
        await procedure.aclose()
    assert cancelled is not None
    assert run.steps[8].status.value == "cancelled", run.steps[8].message
    assert run.failed_step is None and run.verdict.outcome == "cancelled"
    assert not [f for s in run.steps for f in s.findings if f.rule == "ERR1"]
    assert [s.status.value for s in run.steps[9:]] == ["skipped", "skipped"]
    monkeypatch.setenv("SIA_TUI_DATA_DIR", str(tmp_path / "data"))
    history.autosave(run, ClientOptions())
    assert [e.outcome for e in history.list_history()] == ["cancelled"]


# -- hints that name what they are about, and the key or command to use next -----------------
def test_no_describe_names_describe_skill(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], args_file: str
) -> None:
    """The hint is about describe_skill, not 'it' (the skill the user chose is advertised)."""
    url = start(agents, "no-describe").url
    assert main(["check", url, "--skill", SKILL, "--args", args_file]) == 1
    out = capsys.readouterr().out
    next_line = next(line for line in out.splitlines() if line.strip().startswith("next:"))
    assert "describe_skill" in next_line and "advertise it" not in next_line
    assert "--save FILE" in next_line  # the command to use next


def test_a_digest_mismatch_is_said_once(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], args_file: str
) -> None:
    """digest-response: one sentence for the step, one finding with the facts."""
    url = start(agents, "digest-response").url
    assert main(["check", url, "--skill", SKILL, "--args", args_file]) == 1
    out = capsys.readouterr().out
    assert out.count("describe_skill returned") == 1, out
    assert out.count("describe_skill's returned digest differs from both") == 2  # step, outcome


def test_an_extension_without_domain_skills_is_named_not_an_empty_list(
    agents: list[RunningAgent], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A card whose extension binds no domain skill: the message says so in words."""
    url = start(agents).url
    card = json.loads(httpx.get(url + "/.well-known/agent-card.json").text)
    extension = card["capabilities"]["extensions"][0]
    extension["params"]["skills"] = []
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    code, report = check(capsys, str(path))
    message = report["steps"][1]["message"]
    assert code == 2 and message == "choose a skill; the extension advertises no domain skill"


def test_every_next_action_has_a_command_and_a_key() -> None:
    """Each place a failure points to is named as a check command and as a TUI key."""
    from sia_tui.core.engine import CLI_NEXT
    from sia_tui.core.run import NextAction
    from sia_tui.tui.render.evidence import TUI_NEXT

    assert set(CLI_NEXT) == set(NextAction) == set(TUI_NEXT)
    assert all(key.startswith(("press ", "read ")) for key in TUI_NEXT.values())
