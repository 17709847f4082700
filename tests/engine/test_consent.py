"""Consent is per invocation: the Procedure sends a skill that asks for it once per yes.

``Procedure.consent_to_send()`` is the user's yes to the next send; step 8 takes it. A
restart, new arguments or another skill start without it, so a second invocation waits
again (after the TUI's ``R``, which keeps no arguments, ctrl+j must ask again). The
agent's side is the witness.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.cli import main
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.run.verdicts import RunOutcome
from tests.support.witness import Witness, witnessed_agent

SHUTDOWN = "apply_interface_shutdown"
VALID = {"device_id": "edge-router-7", "interface_name": "ge-0/0/1"}


def _procedure(agent: Witness, skill: str = SHUTDOWN) -> Procedure:
    return Procedure(Target(agent.url, skill_id=skill), ClientOptions())


def _held(run: Run) -> None:
    """Step 8 waits for consent: the run is over for now, incomplete, and says why."""
    assert run.verdict.waiting_for_consent and run.verdict.finished
    assert run.step(Step.DELEGATION).status is StepStatus.NOT_RUN
    assert run.verdict.outcome is RunOutcome.INCOMPLETE and run.verdict.outcome.exit_code == 3
    assert "not sent" in run.verdict.summary and "--allow-execute" in run.verdict.summary


# These read what the command line says (the TUI words consent as its own dialog).
pytestmark = pytest.mark.usefixtures("cli_wording")


async def test_without_consent_step_8_sends_nothing_and_the_run_is_incomplete() -> None:
    with witnessed_agent() as agent:
        procedure = _procedure(agent)
        procedure.set_arguments(VALID)
        run = await procedure.run_all()
        assert await procedure.step() is None  # asking step by step does not get past it
        await procedure.aclose()
        assert agent.count(SHUTDOWN) == 0
    _held(run)
    assert run.step(Step.ARGUMENTS).status is StepStatus.PASSED


async def test_one_consent_sends_once_and_a_restart_asks_again() -> None:
    """The yes is spent by the send; a restart keeps no arguments (steps 1-6 run, nothing is
    asked or sent) and the arguments given afterwards wait for a new yes."""
    with witnessed_agent() as agent:
        procedure = _procedure(agent)
        procedure.set_arguments(VALID)
        await procedure.run_until(Step.ARGUMENTS)
        procedure.consent_to_send()
        run = await procedure.run_all()
        assert run.verdict.outcome is RunOutcome.PASSED and agent.count(SHUTDOWN) == 1
        assert not run.consent  # taken by the send
        await procedure.restart()  # the TUI's R: a fresh run, without arguments
        again = await procedure.run_all()
        assert again.verdict.waiting_for_arguments and not again.verdict.waiting_for_consent
        assert again.step(Step.ARGUMENTS).status is StepStatus.NOT_RUN
        procedure.set_arguments(VALID)  # the same arguments again: a new invocation
        again = await procedure.run_all()
        await procedure.aclose()
        assert agent.count(SHUTDOWN) == 1
    _held(again)


async def test_new_arguments_take_a_consent_back() -> None:
    """A yes was for the arguments the user saw; other arguments ask again."""
    with witnessed_agent() as agent:
        procedure = _procedure(agent)
        procedure.set_arguments(VALID)
        procedure.consent_to_send()
        procedure.set_arguments({**VALID, "interface_name": "ge-0/0/2"})
        run = await procedure.run_all()
        await procedure.aclose()
        assert agent.count(SHUTDOWN) == 0
    _held(run)


async def test_a_negative_test_of_a_skill_that_may_act_asks_too() -> None:
    """Arguments that fail the schema may still be acted on by an agent that does not
    validate (that is what a negative test looks for): they wait for consent as well."""
    with witnessed_agent() as agent:
        procedure = _procedure(agent)
        procedure.set_arguments({"device_id": "edge-router-7"}, send_anyway=True)
        run = await procedure.run_all()
        await procedure.aclose()
        assert agent.count(SHUTDOWN) == 0
    _held(run)


async def test_a_skill_that_only_observes_never_waits() -> None:
    with witnessed_agent() as agent:
        procedure = _procedure(agent, "evaluate_resource_condition")
        procedure.use_example()
        run = await procedure.run_all()
        await procedure.aclose()
    assert run.answers.consent_need is None and not run.verdict.waiting_for_consent
    assert run.verdict.outcome is RunOutcome.PASSED


def test_rerun_re_sends_only_with_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A saved session of an execute skill: replay (recorded answers, no agent) runs it as
    recorded; rerun (the live agent) sends it again only with --allow-execute, else exit 3
    and the reason. The bug report's rerun command leaves the consent to its reader."""
    saved = tmp_path / "s.session.json"
    with witnessed_agent() as agent:
        argv = ["check", agent.url, "--skill", SHUTDOWN, "--args", "example"]
        assert main([*argv, "--allow-execute", "--save", str(saved)]) == 0
        assert main(["replay", str(saved)]) == 0
        assert agent.count(SHUTDOWN) == 1
        capsys.readouterr()
        assert main(["rerun", str(saved)]) == 3
        assert capsys.readouterr().out.startswith("not re-sent: steps 8-11 did not run")
        assert agent.count(SHUTDOWN) == 1
        assert main(["rerun", str(saved), "--allow-execute"]) == 0
        assert agent.count(SHUTDOWN) == 2
    assert main(["report", str(saved)]) == 0
    report = capsys.readouterr().out
    command = next(line for line in report.splitlines() if line.startswith("sia-tui rerun"))
    assert "--allow-execute" not in command
    assert "rerun sends its invocation again only with --allow-execute" in report
