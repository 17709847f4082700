"""`sia-tui check` against an agent built with the official A2A SDK (our guard against
testing only against ourselves)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main

ARGS = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"},
}


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json"])
def test_check_passes_against_the_sdk_extension_agent(
    sdk_extension_agent_url: str, binding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """All eleven steps pass over both bindings against a2a-sdk 1.3.0's server."""
    args = tmp_path / "args.json"
    args.write_text(json.dumps(ARGS))
    code = main(
        [
            "check",
            sdk_extension_agent_url,
            "--skill",
            "evaluate_resource_condition",
            "--args",
            str(args),
            "--binding",
            binding,
            "--json",
            "--no-cache",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert [s["status"] for s in report["steps"]] == ["passed"] * 11, report["error"]
    assert code == 0
    assert report["binding"] == {"jsonrpc": "JSONRPC", "http-json": "HTTP+JSON"}[binding]
    assert report["result"]["result"] == "condition_not_met"
