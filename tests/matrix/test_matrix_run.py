"""`sia-tui matrix` over the reference agent with faults, an a2a-sdk agent and an agent that
is down: the cells a person reads, the baseline, the exit status, the JUnit counts CI reads."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.session import load_session
from tests.support.agents import StartAgent
from tests.support.plugfest import closed_port_url, plugfest_file

SKILL = "evaluate_resource_condition"
BASELINE = """
[[skill]]
id = "evaluate_resource_condition"

[[expect]]
agent = "digest-card"
step = 4
code = "interface_invalid"
reason = "ticket 12: the card generator hashes a stale document"

[[expect]]
agent = "mismatch"
cell = "JSONRPC/sync"
step = 8
reason = "ticket 31: rejects its own interface"
"""
COLUMNS = [
    f"{binding}/{mode}"
    for binding in ("JSONRPC", "HTTP+JSON")
    for mode in ("sync", "stream", "poll")
]
PASS = ("pass", None, None, None)
#: Poll: evaluate_resource_condition declares sync and stream only (RULES SID4).
SKIP = ("skip", None, None, None)


def fail(step: int, code: str | None = None, origin: str | None = None) -> tuple[Any, ...]:
    return ("fail", step, code, origin)


def both_bindings(*cells: tuple[Any, ...]) -> Any:
    """sync, stream, poll: the same three cells over JSONRPC and over HTTP+JSON."""
    sync, stream, poll = cells
    return dict(zip(COLUMNS, [sync, stream, poll] * 2, strict=True))


#: (status, step, code, origin) of every binding/mode cell, per agent.
EXPECTED = {
    "reference": both_bindings(PASS, PASS, SKIP),
    # No validated document, so no declared modes: poll runs too, and fails at step 4.
    "digest-card": both_bindings(*[fail(4, "interface_invalid", "local")] * 3),
    "output-invalid": both_bindings(*[fail(10, "output_invalid", "local")] * 2, SKIP),
    # A REJECTED task was never accepted: step 8 in every mode (stream included).
    "mismatch": both_bindings(*[fail(8, "interface_mismatch", "remote")] * 2, SKIP),
    "a2a-sdk": both_bindings(PASS, PASS, SKIP),
    # Connection refused: step 1, a transport failure (no draft code).
    "down": both_bindings(*[fail(1, None, "local")] * 3),
}


@pytest.fixture
def plugfest(reference_agent: StartAgent, sdk_extension_agent_url: str, tmp_path: Path) -> Path:
    agents = {
        "reference": reference_agent().url,
        "digest-card": reference_agent(fault="digest-card").url,
        "output-invalid": reference_agent(fault="output-invalid").url,
        "mismatch": reference_agent(fault="mismatch").url,
        "a2a-sdk": sdk_extension_agent_url,
        "down": closed_port_url(),
    }
    return plugfest_file(tmp_path, agents, BASELINE, head='name = "test plugfest"\njobs = 6')


def _cells(report: dict[str, Any]) -> dict[str, dict[str, tuple[Any, ...]]]:
    return {
        row["agent"]: {
            key: (cell["status"], cell["step"], cell["code"], cell["origin"])
            for key, cell in row["cells"].items()
            if key in COLUMNS
        }
        for row in report["rows"]
    }


def test_matrix_over_faults_and_an_sdk_agent(
    plugfest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every cell says what its run said; new failures exit 1; the JUnit counts agree."""
    out = tmp_path / "out"
    out.mkdir()
    junit, html, markdown = out / "m.xml", out / "m.html", out / "m.md"
    sessions = out / "sessions"
    code = main(
        [
            "matrix",
            str(plugfest),
            "--json",
            "--junit",
            str(junit),
            "--html",
            str(html),
            "--markdown",
            str(markdown),
            "--save-dir",
            str(sessions),
        ]
    )
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert [(r["agent"], r["skill"]) for r in report["rows"]] == [(a, SKILL) for a in EXPECTED]
    assert _cells(report) == EXPECTED

    # The step columns are the row's first run (JSONRPC, the engine's mode: sync).
    steps = {
        r["agent"]: [r["cells"][f"step{n}"]["status"] for n in range(1, 12)] for r in report["rows"]
    }
    assert steps["reference"] == ["pass"] * 11
    assert steps["digest-card"] == ["pass"] * 3 + ["fail"] + ["skip"] * 7
    assert steps["down"] == ["fail"] + ["skip"] * 10

    # The baseline: 7 expected failures (digest-card x6, mismatch JSONRPC/sync), 13 new ones.
    baseline = report["baseline"]
    assert len(baseline["expected_failures"]) == 7
    assert len(baseline["new_failures"]) == 4 + 3 + 6
    assert {"agent": "mismatch", "skill": SKILL, "cell": "JSONRPC/stream"} in baseline[
        "new_failures"
    ]
    assert baseline["now_passing"] == baseline["unused"] == []
    assert code == report["exit_code"] == 1
    assert report["headline"].startswith("NEW FAILURES: 13 new failure(s)")
    cell = report["rows"][1]["cells"]["HTTP+JSON/sync"]
    assert cell["expected"] == "ticket 12: the card generator hashes a stale document"
    assert cell["at_fault"]["party"] == "agent"

    # Progress on stderr, one line per verdict cell.
    progress = [line for line in captured.err.splitlines() if line.startswith("[")]
    assert len(progress) == 36
    assert "[36/36]" in captured.err

    # JUnit: one testcase per verdict cell; failures are the new ones, skipped the rest.
    root = ET.parse(junit).getroot()
    statuses = [s for row in EXPECTED.values() for s, *_ in row.values()]
    assert root.get("tests") == "36"
    assert root.get("failures") == "13"
    assert root.get("errors") == "0"
    assert root.get("skipped") == str(statuses.count("skip") + 7)
    assert len(root.findall("testsuite")) == 6
    failure = root.find("testsuite[@name='output-invalid · evaluate_resource_condition']")
    assert failure is not None
    first = failure.find("testcase/failure")
    assert first is not None and first.get("type") == "output_invalid"

    # Each verdict cell links to its own saved session, which says the same thing.
    for row in report["rows"]:
        for key in COLUMNS:
            cell = row["cells"][key]
            if cell["status"] == "skip":
                continue
            run = load_session(cell["session"]).run
            failed = run.failed_step
            assert (failed.step if failed else None) == cell["step"], (row["agent"], key)

    # Composition: the pairs across vendors whose documents were validated are judged.
    pairs = {(p["upstream"]["agent"], p["downstream"]["agent"]): p for p in report["composition"]}
    assert len(pairs) == 6 * 5
    assert pairs[("reference", "a2a-sdk")]["status"] == "not_allowed"
    assert pairs[("down", "reference")]["status"] == "unavailable"
    assert pairs[("reference", "digest-card")]["status"] == "unavailable"

    # The reports link sessions relative to themselves.
    page = html.read_text(encoding="utf-8")
    assert 'href="sessions/02-digest-card--evaluate_resource_condition--first.session.json"' in page
    assert "](<sessions/" in markdown.read_text(encoding="utf-8")
