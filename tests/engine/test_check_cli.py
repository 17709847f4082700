"""`sia-tui check`: exit codes, the --json contract, and no secret in any output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent
from sia_tui.cli import main

CANARY = "canary-s3cr3t-7d1f"
ARGS = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 80, "unit": "percent"},
}


@pytest.fixture
def agent_url(request: pytest.FixtureRequest) -> Iterator[str]:
    agent = start_agent(AgentConfig(fault=getattr(request, "param", None), step_delay=0.02))
    try:
        yield agent.url
    finally:
        agent.stop()


@pytest.fixture
def args_file(tmp_path: Path) -> str:
    path = tmp_path / "args.json"
    path.write_text(json.dumps(ARGS))
    return str(path)


def test_json_report_contract(
    agent_url: str, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json: outcome, exactly 11 steps, error, digests, task, dialect."""
    code = main(
        [
            "check",
            agent_url,
            "--skill",
            "evaluate_resource_condition",
            "--args",
            args_file,
            "--json",
            "--no-cache",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["outcome"] == "passed"
    assert [s["step"] for s in report["steps"]] == list(range(1, 12))
    assert {s["status"] for s in report["steps"]} == {"passed"}
    assert report["error"] is None
    assert report["digests"]["advertised"] == report["digests"]["computed"]
    assert report["task"]["state"] == "TASK_STATE_COMPLETED"
    assert report["dialect"] == "1.0"


def test_without_args_steps_7_to_11_are_not_run(
    agent_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Steps 1-6 only: the run is incomplete (exit 3), never a pass."""
    code = main(
        ["check", agent_url, "--skill", "evaluate_resource_condition", "--json", "--no-cache"]
    )
    report = json.loads(capsys.readouterr().out)
    assert (code, report["outcome"]) == (3, "incomplete")
    assert [s["status"] for s in report["steps"]] == ["passed"] * 6 + ["not_run"] * 5
    assert "steps 7-11 did not run: no arguments were given" in report["summary"]


def test_several_skills_without_skill_is_usage(
    agent_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --skill the advertised skills are listed and the exit code is 2."""
    code = main(["check", agent_url, "--no-cache"])
    err = capsys.readouterr().err
    assert code == 2
    assert "evaluate_resource_condition" in err


@pytest.mark.parametrize("agent_url", ["digest-card"], indirect=True)
def test_failure_exit_code_and_error_object(
    agent_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failed procedure exits 1 and names step, code and origin."""
    code = main(
        ["check", agent_url, "--skill", "evaluate_resource_condition", "--json", "--no-cache"]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["error"]["step"] == 4
    assert report["error"]["code"] == "interface_invalid"
    assert report["error"]["origin"] == "local"


def test_text_report_names_the_failure(
    agent_url: str, capsys: pytest.CaptureFixture[str], args_file: str
) -> None:
    """The readable report lists all eleven steps and the outcome."""
    code = main(
        [
            "check",
            agent_url,
            "--skill",
            "evaluate_resource_condition",
            "--args",
            args_file,
            "--no-cache",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "11. Preserve and display the results" in out
    assert "outcome: PASSED" in out


def test_secrets_never_printed(
    agent_url: str, args_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--header and --bearer values appear in neither the text nor the JSON report."""
    for extra in ([], ["--json"]):
        main(
            [
                "check",
                agent_url,
                "--skill",
                "evaluate_resource_condition",
                "--args",
                args_file,
                "--header",
                f"X-Api-Key: {CANARY}",
                "--bearer",
                CANARY + "b",
                "--no-cache",
                *extra,
            ]
        )
        captured = capsys.readouterr()
        assert CANARY not in captured.out + captured.err


def test_unreadable_args_is_usage(
    agent_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken --args file: one located line on stderr, exit 2, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1, "a": 2}')
    code = main(["check", agent_url, "--args", str(bad)])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err and "bad.json" in err


def _check_example(url: str) -> list[str]:
    return ["check", url, "--skill", "evaluate_resource_condition", "--args", "example"]


def test_a_usage_failure_says_exit_2_in_the_json_as_the_process_does(
    agent_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--mode poll on a document that declares sync and stream: the caller's flag is wrong
    (exit 2), and the JSON a CI script reads says the same exit code as the process."""
    code = main([*_check_example(agent_url), "--mode", "poll", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["error"]["step"] == 8
    assert (code, report["exit_code"]) == (2, 2)


def test_ctrl_c_keeps_the_session_and_junit_of_what_ran(
    agent_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Ctrl-C while describe_skill hangs: exit 130, and --save / --junit keep what the run
    did (the card), its outcome incomplete, never passed, as stderr says."""
    import asyncio
    import signal

    from sia_tui.core.engine import step_runner
    from sia_tui.core.run import Step

    real = step_runner.step_function

    def hanging_describe(step: Step) -> step_runner.StepFunction:
        async def hang(*_: object) -> None:
            signal.raise_signal(signal.SIGINT)  # the user's Ctrl-C, while the agent hangs
            await asyncio.Event().wait()

        return hang if step == Step.DESCRIBE else real(step)

    monkeypatch.setattr(step_runner, "step_function", hanging_describe)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    save, junit = tmp_path / "hang.session.json", tmp_path / "hang.xml"
    try:
        code = main([*_check_example(agent_url), "--save", str(save), "--junit", str(junit)])
    finally:
        signal.signal(signal.SIGINT, previous)
    err = capsys.readouterr().err
    session = json.loads(save.read_text())
    assert code == 130
    assert session["outcome"] == "incomplete"
    assert [e["purpose"] for e in session["exchanges"]] == ["agent card"]
    assert "step 03" in junit.read_text() and 'failures="0"' in junit.read_text()
    assert "interrupted" in err and "INCOMPLETE: steps 3-11 did not run" in err
