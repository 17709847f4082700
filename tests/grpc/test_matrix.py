"""`sia-tui matrix` with a GRPC binding column: each cell is its own run over gRPC; an agent
whose card offers no gRPC interface gets a "skip" that says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.plugfest import plugfest_file

HEAD = 'name = "grpc plugfest"\nbindings = ["JSONRPC", "GRPC"]\nmodes = ["sync", "stream"]'
SKILL = '[[skill]]\nid = "evaluate_resource_condition"\n'


def test_a_grpc_column_runs_over_grpc(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agents = {
        "grpc": reference_agent(grpc_port=0).url,
        "grpc-mismatch": reference_agent(fault="mismatch", grpc_port=0).url,
        "http-only": reference_agent().url,
    }
    plugfest = plugfest_file(tmp_path, agents, SKILL, head=HEAD)
    assert main(["matrix", str(plugfest), "--json"]) == 1  # mismatch: new failures
    report = json.loads(capsys.readouterr().out)

    def cells(agent: str) -> dict[str, Any]:
        row = next(r for r in report["rows"] if r["agent"] == agent)
        return {k: (c["status"], c["step"], c["code"]) for k, c in row["cells"].items() if "/" in k}

    assert cells("grpc") == {
        "JSONRPC/sync": ("pass", None, None),
        "JSONRPC/stream": ("pass", None, None),
        "GRPC/sync": ("pass", None, None),
        "GRPC/stream": ("pass", None, None),
    }
    assert {k: v for k, v in cells("grpc-mismatch").items() if k.startswith("GRPC")} == {
        "GRPC/sync": ("fail", 8, "interface_mismatch"),
        "GRPC/stream": ("fail", 8, "interface_mismatch"),
    }
    http_only = next(r for r in report["rows"] if r["agent"] == "http-only")["cells"]
    assert http_only["GRPC/sync"]["status"] == "skip"
    assert "no callable GRPC interface" in http_only["GRPC/sync"]["summary"]
