"""`probe = true`: the probe column, graded by `sia-tui probe`'s engine, in the matrix."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sia_tui.cli import main
from sia_tui.core.session import load_session
from tests.support.agents import StartAgent
from tests.support.plugfest import plugfest_file

HEAD = 'probe = true\nbindings = ["JSONRPC"]\nmodes = ["sync"]'
EXTRA = """
[[skill]]
id = "evaluate_resource_condition"

[[expect]]
agent = "accepts-stale"
cell = "probe"
reason = "ticket 40: does not compare the digest"
"""


def test_probe_cells(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A clean agent passes its probes; one that accepts a stale digest fails the probe
    (expected by the baseline); one whose interface cannot be learned has nothing to probe."""
    agents = {
        "reference": reference_agent().url,
        "accepts-stale": reference_agent(fault="accepts-stale").url,
        "digest-card": reference_agent(fault="digest-card").url,
    }
    path = plugfest_file(tmp_path, agents, EXTRA, head=HEAD)
    junit = tmp_path / "m.xml"
    code = main(
        ["matrix", str(path), "--json", "--save-dir", str(tmp_path / "s"), "--junit", str(junit)]
    )
    report = json.loads(capsys.readouterr().out)
    assert [c["key"] for c in report["columns"]][-2:] == ["JSONRPC/sync", "probe"]
    cells = {r["agent"]: r["cells"] for r in report["rows"]}

    assert cells["reference"]["probe"]["status"] == "pass"
    assert cells["reference"]["probe"]["summary"].startswith("probes: ")
    stale = cells["accepts-stale"]["probe"]
    assert stale["status"] == "fail" and stale["category"] == "probe"
    assert "stale-digest (RULES INV2)" in stale["summary"]
    assert stale["expected"] == "ticket 40: does not compare the digest"
    # The stale digest is the only thing wrong with it: the ordinary run passes.
    assert cells["accepts-stale"]["JSONRPC/sync"]["status"] == "pass"
    learned = cells["digest-card"]["probe"]
    assert learned["status"] == "skip" and learned["session"] is None
    assert learned["summary"].startswith("the interface was not learned: FAILED at step 4")

    # digest-card's step 4 failure is new (exit 1); the probe failure is expected.
    assert code == 1
    assert report["baseline"]["new_failures"] == [
        {"agent": "digest-card", "skill": "evaluate_resource_condition", "cell": "JSONRPC/sync"}
    ]
    # The probe cell's session holds the probe run: `replay` re-grades it, the TUI shows it.
    saved = load_session(stale["session"])
    assert saved.probe is not None
    root = ET.parse(junit).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("6", "1", "2")


def test_a_probe_cell_after_a_failed_baseline_does_not_say_the_interface_was_not_learned() -> None:
    """Steps 1-6 passed and the valid baseline failed at step 10: the probe cell says so
    (it used to say "the interface was not learned")."""
    from sia_tui.core.codes import ErrorCode
    from sia_tui.core.matrix.grid import CellStatus
    from sia_tui.core.matrix.project import probe_cell
    from sia_tui.core.probe.results import ProbeReport
    from sia_tui.core.run.read_model import Run, Step, StepStatus, Target

    run = Run(target=Target("http://127.0.0.1:9"))
    for step in run.steps[: Step.RECEPTION]:
        step.status = StepStatus.PASSED
    failed = run.step(Step.OUTPUT)
    failed.status, failed.code = StepStatus.FAILED, ErrorCode.OUTPUT_INVALID
    failed.message = "the result does not validate"
    cell = probe_cell(ProbeReport(learning=run), lambda text: text)
    assert cell.status is CellStatus.SKIP
    assert cell.summary.startswith(
        "steps 1-6 learned the interface, but the valid baseline invocation (steps 7-11) "
        "failed: FAILED at step 10"
    )
