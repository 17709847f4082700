"""The execute gate: a skill that may act is never invoked without the user's consent.

The draft's authority member describes; it never authorizes (RULES SID5). A skill whose
document declares ``execute`` authority or ``approval_may_be_required`` gets its invocation
only with consent for that invocation: ``--allow-execute`` on every command, the dialog in
the TUI. Without it step 8 sends nothing, says why, and the outcome is incomplete (exit 3),
never passed. Each test asserts on the agent's side: what reached it, not what we recorded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main
from tests.support.plugfest import plugfest_file
from tests.support.witness import witnessed_agent

SHUTDOWN = "apply_interface_shutdown"
#: recommend_only, but approval may be required: it asks for consent too.
UPGRADE = "propose_capacity_upgrade"


def _check(url: str, skill: str, *flags: str) -> int:
    return main(["check", url, "--skill", skill, "--args", "example", *flags])


def test_check_does_not_invoke_an_execute_skill_without_the_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with witnessed_agent() as agent:
        code = _check(agent.url, SHUTDOWN, "--json")
        assert agent.count(SHUTDOWN) == 0  # the agent never saw the invocation
    report = json.loads(capsys.readouterr().out)
    assert code == 3
    assert report["outcome"] == "incomplete"
    assert [s["status"] for s in report["steps"][6:]] == ["passed"] + ["not_run"] * 4
    summary = report["summary"]
    assert "not sent" in summary and "execute authority" in summary
    assert "--allow-execute" in summary  # what to do about it


def test_check_with_the_flag_sends_it_once_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with witnessed_agent() as agent:
        code = _check(agent.url, SHUTDOWN, "--json", "--allow-execute")
        assert agent.count(SHUTDOWN) == 1
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["outcome"] == "passed"
    delegation = report["steps"][7]["evidence"]
    assert delegation["consent"] == (
        "the document declares execute authority and that approval may be required"
    )


def test_approval_may_be_required_asks_for_consent_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """propose_capacity_upgrade recommends only, but its document says approval may be
    required: an invocation it may need approval for is not ours to send unasked."""
    with witnessed_agent() as agent:
        assert _check(agent.url, UPGRADE) == 3
        assert agent.count(UPGRADE) == 0
        out = capsys.readouterr().out
        assert "approval may be required" in out
        assert _check(agent.url, UPGRADE, "--allow-execute") == 0
        assert agent.count(UPGRADE) == 1


def test_the_probe_flag_is_the_same_name_and_the_old_one_still_works(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One flag for check, matrix and probe; scripts that say --allow-valid-invocations
    keep working."""
    with witnessed_agent() as agent:
        for flag in ("--allow-execute", "--allow-valid-invocations"):
            before = agent.count(SHUTDOWN)
            assert main(["probe", agent.url, "--skill", SHUTDOWN, "--json", flag]) == 0
            report = json.loads(capsys.readouterr().out)
            assert report["learning"]["baseline"] == "ran"
            assert agent.count(SHUTDOWN) > before
        assert _check(agent.url, SHUTDOWN, "--allow-valid-invocations") == 0


def test_matrix_without_a_skill_list_does_not_invoke_the_execute_skill(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugfest file that names no skills tries every advertised one: the skills that
    may act are learned (steps 1-7), not invoked; their cells say why, and could not run
    is exit 3, neither a pass nor a new failure."""
    with witnessed_agent() as agent:
        path = plugfest_file(tmp_path, {"a": agent.url}, head='bindings = ["JSONRPC"]')
        code = main(["matrix", str(path), "--json"])
        assert agent.count(SHUTDOWN) == 0 and agent.count(UPGRADE) == 0
        assert agent.count("evaluate_resource_condition") > 0  # the others did run
    matrix = json.loads(capsys.readouterr().out)
    assert code == 3
    rows = {row["skill"]: row for row in matrix["rows"]}
    for skill in (SHUTDOWN, UPGRADE):
        cells = rows[skill]["cells"]
        # The steps and the wire column inform; the binding/mode cells are the runs.
        columns = [c for key, c in cells.items() if not key.startswith("step") and key != "wire"]
        # A mode the document does not declare does not apply (skip); every run that
        # applies stopped before step 8.
        held = [c for c in columns if c["status"] != "skip"]
        assert held and all(c["status"] == "incomplete" for c in held), cells
        assert all("--allow-execute" in c["summary"] for c in held)
        assert cells["step8"]["status"] == "incomplete"


def test_matrix_with_the_flag_invokes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with witnessed_agent() as agent:
        path = plugfest_file(
            tmp_path,
            {"a": agent.url},
            f'[[skill]]\nid = "{SHUTDOWN}"',
            head='bindings = ["JSONRPC"]\nmodes = ["sync"]',
        )
        assert main(["matrix", str(path), "--json", "--allow-execute"]) == 0
        assert agent.count(SHUTDOWN) == 1
    capsys.readouterr()
