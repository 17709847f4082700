"""A deliberate negative test (send anyway, `check --send-anyway`) graded by the one grader
`probe` uses: same verdict, same rule, same words (RULES INV3, ERR1, ERR5)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sia_tui.cli import main
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.probe.results import ProbeKind
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.run.refusal import Grade
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.probe import probe
from tests.support.scripted_agent import BASE, SKILL, ScriptedAgent, task

#: Appendix B arguments whose threshold is a string: one type error at /condition/threshold.
WRONG_TYPE = {
    **APPENDIX_B_ARGUMENTS,
    "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "eighty"},
}
REJECTED = "TASK_STATE_REJECTED"


async def negative_test(
    agent: ScriptedAgent | None = None, url: str = BASE, arguments: Any = WRONG_TYPE
) -> Run:
    """Steps 1-11 with ``arguments`` sent anyway, to ``agent`` or the agent at ``url``."""
    transport = agent.transport() if agent is not None else None
    procedure = Procedure(Target(url, skill_id=SKILL), ClientOptions(), transport=transport)
    procedure.set_arguments(arguments, send_anyway=True)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


def rejecting(*status_data: Any) -> ScriptedAgent:
    return ScriptedAgent(invoke=lambda _r: task(REJECTED, status_data=list(status_data)))


def input_invalid(*details: Any) -> dict[str, Any]:
    return {"code": "input_invalid", "message": "bad", "details": list(details)}


async def test_details_at_the_member_pass() -> None:
    run = await negative_test(rejecting(input_invalid({"instance_path": "/condition/threshold"})))
    assert run.verdict.outcome == "negative_test_passed"
    assert run.verdict.summary == (
        "the agent rejected the invalid arguments as the deliberate negative test expects: "
        "TASK_STATE_REJECTED with input_invalid, details at /condition/threshold (RULES INV3)"
    )


async def test_no_details_at_all_pass_with_a_warning() -> None:
    """ERR5 requires instance_path in each entry; details absent altogether only warn."""
    run = await negative_test(rejecting(input_invalid()))
    verdict = run.verdict.negative_test_verdict
    assert run.verdict.outcome == "negative_test_passed" and run.verdict.outcome.exit_code == 0
    assert verdict is not None and (verdict.grade, verdict.rule) == (Grade.WARN, "ERR5")
    assert (
        "with a warning: TASK_STATE_REJECTED with input_invalid, but no details"
        in run.verdict.summary
    )


@pytest.mark.parametrize(
    ("status_data", "rule", "words"),
    [
        # RULES ERR5: details locate the member, not the schema keyword.
        (
            [input_invalid({"instance_path": "/properties/condition/properties/threshold/type"})],
            "ERR5",
            "details point at /properties/condition/properties/threshold/type, not at "
            "/condition/threshold",
        ),
        # RULES ERR5: each entry must contain instance_path.
        ([input_invalid({"keyword": "type"})], "ERR5", "1 details entry lacks an instance_path"),
        # RULES ERR1: exactly one data part; the second says something else.
        (
            [
                input_invalid({"instance_path": "/condition/threshold"}),
                {"code": "execution_failed"},
            ],
            "ERR1",
            "the final status message has 2 data parts",
        ),
    ],
    ids=["schema-path", "no-instance-path", "two-data-parts"],
)
async def test_a_rejection_that_breaks_a_must_fails_at_step_8(
    status_data: list[Any], rule: str, words: str
) -> None:
    run = await negative_test(rejecting(*status_data))
    failed, verdict = run.failed_step, run.verdict.negative_test_verdict
    assert run.verdict.outcome == "failed" and run.verdict.outcome.exit_code == 1
    assert failed is not None and (failed.step, failed.code, failed.origin) == (
        8,
        "input_invalid",
        "remote",
    )
    assert verdict is not None and (verdict.grade, verdict.rule) == (Grade.FAIL, rule)
    assert words in run.verdict.summary and f"RULES {rule}" in run.verdict.summary
    blame = run.verdict.at_fault
    assert blame is not None and blame.party.value == "agent"


async def test_valid_arguments_sent_anyway_are_an_ordinary_invocation() -> None:
    """Send anyway with arguments that validate: not a negative test (what is sent is the
    caller's arguments, whatever the flag); step 7 passes, they are delegated and graded as
    an ordinary invocation, so a rejection with input_invalid is the agent's failure."""
    agent = rejecting(input_invalid())
    run = await negative_test(agent, arguments=APPENDIX_B_ARGUMENTS)
    assert run.step(Step.ARGUMENTS).status is StepStatus.PASSED
    assert "send anyway has no effect" in run.step(Step.ARGUMENTS).message
    assert len(agent.requests) == 2  # describe_skill, then the invocation
    assert not run.verdict.negative_test and run.verdict.negative_test_verdict is None
    assert run.verdict.outcome == "failed"
    failed = run.failed_step
    assert failed is not None and failed.step == 8


# -- the reference agent's faults: the negative test and probe agree --------------------------
async def test_details_wrong_member_fails_the_negative_test_as_probe_fails_it(
    reference_agent: StartAgent,
) -> None:
    """`serve-demo --fault details-wrong-member`: the negative test used to pass while probe
    failed the agent. Both now fail it by RULES ERR5 with the same reason."""
    url = reference_agent(fault="details-wrong-member").url
    run = await negative_test(url=url)
    assert run.verdict.outcome == "failed"
    assert "/properties/condition/properties/threshold/type" in run.verdict.summary
    report = await probe(url)
    for probed in report.results:
        if probed.kind.value.startswith("invalid-") and probed.sent is not None:
            # The probe's own invalid arguments, sent as a negative test: the same verdict.
            same = await negative_test(url=url, arguments=probed.sent.data["arguments"])
            verdict = same.verdict.negative_test_verdict
            assert verdict is not None and probed.grade is verdict.grade is Grade.FAIL
            assert (verdict.rule, verdict.reason) == (probed.rule, probed.reason) != ("", "")


async def test_an_agent_that_fails_invalid_input_fails_step_9_with_its_own_code(
    reference_agent: StartAgent,
) -> None:
    """`--fault args-execution-failed`: FAILED execution_failed for invalid arguments. Step 9
    fails with the agent's code (remote), and the summary names it (RULES INV3)."""
    url = reference_agent(fault="args-execution-failed").url
    run = await negative_test(url=url)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code, failed.origin) == (
        9,
        "execution_failed",
        "remote",
    )
    assert run.steps[7].status is StepStatus.PASSED  # the task was accepted, then failed
    assert run.verdict.summary.startswith(
        "at step 9, Receive status, output and records (execution_failed, remote): the "
        "deliberate negative test failed: answered execution_failed (TASK_STATE_FAILED): it "
        "ran domain logic on arguments that do not validate"
    )
    report = await probe(url)
    probed = next(r for r in report.results if r.kind is ProbeKind.INVALID_WRONG_TYPE)
    verdict = run.verdict.negative_test_verdict
    assert probed.grade is Grade.FAIL
    assert verdict is not None and (verdict.rule, verdict.reason) == (probed.rule, probed.reason)


# -- check --send-anyway --------------------------------------------------------------------
def _write(tmp_path: Path, value: Any) -> str:
    path = tmp_path / "args.json"
    path.write_text(json.dumps(value))
    return str(path)


@pytest.mark.parametrize(
    ("fault", "exit_code", "outcome"),
    [(None, 0, "negative_test_passed"), ("details-wrong-member", 1, "failed")],
)
def test_check_send_anyway_exits_by_the_graders_verdict(
    reference_agent: StartAgent,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fault: str | None,
    exit_code: int,
    outcome: str,
) -> None:
    url = reference_agent(fault=fault).url
    argv = ["check", url, "--skill", SKILL, "--args", _write(tmp_path, WRONG_TYPE)]
    assert main([*argv, "--send-anyway", "--json"]) == exit_code
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == outcome
    graded = report["steps"][7]["evidence"]["refusal"]
    assert graded["grade"] == ("pass" if fault is None else "fail")
    # Without --send-anyway the same file stops at step 7: nothing is sent, and the next
    # step names the flag that sends it (the hint offers a negative test).
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "at step 7" in out
    next_line = next(line for line in out.splitlines() if line.strip().startswith("next:"))
    assert "negative test" in next_line and "--send-anyway" in next_line


def test_check_send_anyway_needs_arguments_and_valid_ones_are_an_ordinary_check(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = reference_agent().url
    assert main(["check", url, "--skill", SKILL, "--send-anyway"]) == 2
    assert "--send-anyway needs --args" in capsys.readouterr().err
    valid = _write(tmp_path, APPENDIX_B_ARGUMENTS)
    assert main(["check", url, "--skill", SKILL, "--args", valid, "--send-anyway", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "passed"  # sent and graded as an ordinary invocation


def test_check_help_says_which_arguments_send_anyway_sends(
    reference_agent: StartAgent, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check --help` describes the negative test check can send: arguments from a file or
    stdin (sent and graded), never --args example (refused, exit 2), and a skill that may
    act still needs --allow-execute."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    said = text.partition("--send-anyway a deliberate negative test")[2].partition(" --mode")[0]
    assert "--args FILE (or -)" in said and "not with --args example" in said
    assert "--allow-execute" in said and "exit 0 pass or warn, 1 fail" in said
    url = reference_agent().url
    argv = ["check", url, "--skill", SKILL, "--send-anyway", "--json"]
    assert main([*argv, "--args", "example"]) == 2
    assert "--args FILE or -" in capsys.readouterr().err
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(WRONG_TYPE).encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main([*argv, "--args", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "negative_test_passed"
