"""The baseline: expected failures, new ones, failures that now pass, and the exit status."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sia_tui.cli import main
from sia_tui.core.matrix.baseline import compare
from sia_tui.core.matrix.grid import Cell, CellStatus, Matrix, Row, columns_for
from sia_tui.core.matrix.plugfest import Expectation, Plugfest
from sia_tui.core.matrix.plugfest_agents import AgentEntry
from tests.support.agents import StartAgent
from tests.support.plugfest import closed_port_url, plugfest_file

ONE_CELL = 'bindings = ["JSONRPC"]\nmodes = ["sync"]'
SKILL = "evaluate_resource_condition"


def _matrix(*expectations: Expectation, status: CellStatus, step: int | None = 4) -> Matrix:
    """One agent, one skill, cells JSONRPC/sync and JSONRPC/stream with ``status``."""
    plugfest = Plugfest(
        source=Path("P.toml"),
        name="p",
        agents=(AgentEntry("a", "http://a"),),
        bindings=("jsonrpc",),
        modes=("sync", "stream"),
        expectations=expectations,
    )
    matrix = Matrix(plugfest, columns_for(plugfest))
    code = "interface_invalid" if status is CellStatus.FAIL else None
    cells = {c.key: Cell(status, "why", step=step, code=code) for c in matrix.columns}
    matrix.rows.append(Row("a", SKILL, cells))
    return matrix


def test_a_matched_failure_is_expected_and_exits_0() -> None:
    matrix = _matrix(
        Expectation("a", "known", step=4, code="interface_invalid"), status=CellStatus.FAIL
    )
    report = compare(matrix)
    assert len(report.expected_failures) == 2 and report.new_failures == []
    assert report.exit_code == 0
    assert matrix.rows[0].cells["JSONRPC/sync"].expected == "known"


@pytest.mark.parametrize(
    "expectation",
    [
        Expectation("a", "known", step=5),  # fails at another step
        Expectation("a", "known", code="output_invalid"),  # with another code
        Expectation("a", "known", skill="other_skill"),  # another skill
        Expectation("b", "known"),  # another agent
    ],
    ids=["other-step", "other-code", "other-skill", "other-agent"],
)
def test_a_failure_the_baseline_does_not_describe_is_new(expectation: Expectation) -> None:
    """Failing differently from what the baseline says is a new failure: exit 1."""
    report = compare(_matrix(expectation, status=CellStatus.FAIL))
    assert len(report.new_failures) == 2 and report.exit_code == 1


def test_an_expectation_limited_to_one_cell_leaves_the_others_new() -> None:
    report = compare(
        _matrix(Expectation("a", "known", cell="JSONRPC/sync"), status=CellStatus.FAIL)
    )
    assert [r.column for r in report.expected_failures] == ["JSONRPC/sync"]
    assert [r.column for r in report.new_failures] == ["JSONRPC/stream"]


def test_an_expected_failure_that_now_passes_is_reported_and_exits_0() -> None:
    expectation = Expectation("a", "ticket 7", step=4)
    matrix = _matrix(expectation, status=CellStatus.PASS, step=None)
    report = compare(matrix)
    assert report.now_passing == [expectation] and report.exit_code == 0
    assert matrix.rows[0].cells["JSONRPC/sync"].fixed == "ticket 7"
    assert "1 expected failure(s) now pass" in report.headline


def test_an_expectation_covering_nothing_is_unused() -> None:
    expectation = Expectation("a", "typo", skill="no_such_skill")
    report = compare(_matrix(expectation, status=CellStatus.PASS, step=None))
    assert report.unused == [expectation] and report.now_passing == []


def test_a_new_failure_outranks_a_cell_that_could_not_run() -> None:
    matrix = _matrix(status=CellStatus.FAIL)
    matrix.rows[0].cells["JSONRPC/stream"] = Cell(CellStatus.INCOMPLETE, "deadline", step=3)
    report = compare(matrix)
    assert report.exit_code == 1 and len(report.incomplete) == 1
    matrix.rows[0].cells["JSONRPC/sync"] = Cell(CellStatus.PASS, "ok")
    assert compare(matrix).exit_code == 3


def test_cli_exit_0_when_the_only_failure_is_expected(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = f'[[skill]]\nid = "{SKILL}"\n[[expect]]\nagent = "b"\nstep = 4\nreason = "known"'
    path = plugfest_file(
        tmp_path, {"b": reference_agent(fault="digest-card").url}, extra, head=ONE_CELL
    )
    assert main(["matrix", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["headline"] == "MATCHES THE BASELINE: 1 expected failure(s)"


def test_cli_now_passing_is_said_and_exits_0(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Piped stdout gets the text table, which tells the user to update the baseline."""
    extra = f'[[skill]]\nid = "{SKILL}"\n[[expect]]\nagent = "a"\nreason = "was broken"'
    path = plugfest_file(tmp_path, {"a": reference_agent().url}, extra, head=ONE_CELL)
    junit = tmp_path / "j.xml"
    assert main(["matrix", str(path), "--junit", str(junit)]) == 0
    text = capsys.readouterr().out
    assert "now passes, remove from the baseline: a (every skill) (every cell) (line 8)" in text
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None and list(case) != []
    out = case.find("system-out")
    assert out is not None and "an expected failure now passes (was broken)" in (out.text or "")


def test_a_cell_past_its_deadline_fails_as_check_says(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The slow agent answers after 2 s; the cell's deadline is the engine's run deadline
    (as `check --deadline 0.5`): step 3 fails, the agent did not finish in time."""
    head = ONE_CELL + "\ndeadline = 0.5"
    path = plugfest_file(
        tmp_path,
        {"slow": reference_agent(fault="slow").url},
        f'[[skill]]\nid = "{SKILL}"',
        head=head,
    )
    junit = tmp_path / "j.xml"
    assert main(["matrix", str(path), "--json", "--junit", str(junit)]) == 1
    cell = json.loads(capsys.readouterr().out)["rows"][0]["cells"]["JSONRPC/sync"]
    assert (cell["status"], cell["step"], cell["category"]) == ("fail", 3, "transport")
    assert cell["at_fault"] == {
        "party": "agent",
        "statement": "the agent did not finish within the run's deadline",
    }
    root = ET.parse(junit).getroot()
    assert (root.get("errors"), root.get("failures")) == ("0", "1")


def test_cli_exit_1_wins_over_3(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new failure (an agent that is down) and a cell that could not run (a skill without
    example arguments): exit 1."""
    agents = {"a": reference_agent().url, "down": closed_port_url()}
    path = plugfest_file(tmp_path, agents, '[[skill]]\nid = "admit_traffic_demand"', head=ONE_CELL)
    assert main(["matrix", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["headline"] == "NEW FAILURES: 1 new failure(s); 1 cell(s) could not run"


def test_a_card_advertising_many_skills_costs_a_bounded_number_of_rows() -> None:
    """Without [[skill]], every advertised skill is a row of runs: a hostile card listing
    thousands must not make thousands of rows."""
    from sia_tui.core.matrix.matrix_runner import MAX_ADVERTISED_SKILLS, MatrixRunner

    agent = AgentEntry("a", "http://a")
    runner = MatrixRunner(Plugfest(source=Path("P.toml"), name="p", agents=(agent,)))
    skills = runner._skills_for(agent, [f"skill_{n}" for n in range(5000)])
    assert len(skills) == MAX_ADVERTISED_SKILLS == 32
    assert runner.warnings == [
        "a: the card advertises 5000 skills; the first 32 are tried "
        "(name the skills with [[skill]])"
    ]
