"""`sia-tui matrix` on the command line: usage errors, a bad file, piped output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sia_tui.cli import main
from tests.support.agents import StartAgent
from tests.support.plugfest import plugfest_file


def test_a_bad_plugfest_file_exits_2_with_every_problem_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "P.toml"
    path.write_text('jobs = "many"\n[[agent]]\nname = "a"\n', encoding="utf-8")
    assert main(["matrix", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    # --json: the usage error is also one JSON object on stdout, for a CI job that reads it.
    assert json.loads(captured.out)["error"]["kind"] == "usage"
    assert captured.err == (
        "sia-tui matrix: 2 problem(s) in the plugfest file:\n"
        f"{path}:1: jobs: must be an integer from 1 to 64, not 'many'\n"
        f"{path}:2: [[agent]] #1: 'card' is required\n"
    )


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--jobs", "0"], "--jobs wants a number from 1 to 64"),
        (["--deadline", "-1"], "--deadline wants seconds, more than 0 and at most 3600"),
        (["--html", "/no/such/folder/m.html"], "cannot write /no/such/folder/m.html"),
    ],
)
def test_usage_errors_exit_2_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    path = plugfest_file(tmp_path, {"a": "http://127.0.0.1:9"})
    assert main(["matrix", str(path), *flags]) == 2
    assert message in capsys.readouterr().err


def test_piped_without_output_flags_prints_the_text_table(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No terminal on stdout: the Matrix screen cannot open, the text table is printed."""
    path = plugfest_file(
        tmp_path,
        {"a": reference_agent().url},
        '[[skill]]\nid = "evaluate_resource_condition"',
        head='bindings = ["JSONRPC"]\nmodes = ["sync", "poll"]',
    )
    assert main(["matrix", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[2:5] == [
        "a · evaluate_resource_condition   steps ✔✔✔✔✔✔✔✔✔✔✔",
        "  JSONRPC sync     ✔",
        "  JSONRPC poll     –: the document declares sync, stream, not poll (RULES SID4)",
    ]
    assert "[1/2] a · evaluate_resource_condition · JSONRPC" in captured.err
    assert captured.err.endswith(
        "sia-tui matrix: MATCHES THE BASELINE: every cell passed or was skipped\n"
    )


def test_a_skill_without_examples_could_not_run_and_exits_3(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """admit_traffic_demand has no example arguments: `example` cannot be honoured. That is
    the file's problem, not the agent's failure: could not run (exit 3), never a fail."""
    path = plugfest_file(
        tmp_path,
        {"a": reference_agent().url},
        '[[skill]]\nid = "admit_traffic_demand"',
        head='bindings = ["JSONRPC"]\nmodes = ["sync"]',
    )
    assert main(["matrix", str(path), "--json"]) == 3
    report = json.loads(capsys.readouterr().out)
    cell = report["rows"][0]["cells"]["JSONRPC/sync"]
    assert (cell["status"], cell["step"], cell["category"]) == ("incomplete", 7, "usage")
    assert cell["summary"].startswith("could not run: no example arguments")
    assert report["rows"][0]["cells"]["step7"]["status"] == "incomplete"
