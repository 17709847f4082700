"""The matrix's ``wire`` column: the row's first run's wire check, informative (it changes
no verdict and no exit status), in every report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.plugfest import plugfest_file

HEAD = 'bindings = ["JSONRPC"]\nmodes = ["sync"]'
EXTRA = """
[[skill]]
id = "evaluate_resource_condition"
"""


def test_the_wire_column_shows_each_rows_wire_check(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agents = {
        "reference": reference_agent().url,
        "missing": reference_agent(fault="wire-missing-member").url,
    }
    path = plugfest_file(tmp_path, agents, EXTRA, head=HEAD)
    code = main(["matrix", str(path), "--json"])
    report = json.loads(capsys.readouterr().out)
    column = next(c for c in report["columns"] if c["key"] == "wire")
    assert (column["label"], column["kind"]) == ("wire", "wire")
    wire = {row["agent"]: row["cells"]["wire"] for row in report["rows"]}
    assert wire["reference"]["status"] == "pass"
    assert wire["reference"]["summary"].startswith("wire (A2A 1.0): 3 exchanges checked, 0 errors")
    assert (wire["missing"]["status"], wire["missing"]["summary"]) == (
        "fail",
        "wire (A2A 1.0): 3 exchanges checked, 1 error, 0 warnings",
    )
    assert code == 0  # informative: a wire error changes no verdict
    assert {row["cells"]["JSONRPC/sync"]["status"] for row in report["rows"]} == {"pass"}
