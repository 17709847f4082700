"""A run is a sequence of invocations: each keeps its own arguments, exchanges and verdict,
and nothing of an earlier one is sent again unless the caller gives it again."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.run.verdicts import RunOutcome
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, APPENDIX_B_INVALID_ARGUMENTS

SKILL = "evaluate_resource_condition"


def invokes(run: Run) -> list[int]:
    return [ex.seq for ex in run.exchanges if ex.purpose == "invoke"]


async def test_a_new_invocation_keeps_the_last_one_with_its_own_verdict(
    reference_agent: StartAgent,
) -> None:
    """A negative test, then valid arguments: two invocations, two verdicts, each with the
    exchanges it made; the first is not changed by the second."""
    agent = reference_agent()
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions())
    try:
        procedure.set_arguments(APPENDIX_B_INVALID_ARGUMENTS, send_anyway=True)
        await procedure.run_all()
        first_invoke = invokes(procedure.run)
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        await procedure.run_all()
    finally:
        await procedure.aclose()
    run = procedure.run
    first, second = run.invocations
    assert (first.number, first.total, second.label) == (1, 2, "invocation 2 of 2")
    assert second.run is run
    assert first.run.verdict.outcome is RunOutcome.NEGATIVE_TEST_PASSED
    assert first.run.arguments == APPENDIX_B_INVALID_ARGUMENTS and first.run.send_anyway
    assert second.run.verdict.outcome is RunOutcome.PASSED and not second.run.send_anyway
    # Each invocation holds steps 1-6 and its own invoke exchange, not the other's.
    assert invokes(first.run) == first_invoke and len(first_invoke) == 1
    assert len(invokes(run)) == 1 and invokes(run) != first_invoke
    assert first.run.step(Step.RECEPTION).status is StepStatus.SKIPPED
    shared = [ex.seq for ex in first.run.exchanges if ex.purpose != "invoke"]
    assert shared == [ex.seq for ex in run.exchanges if ex.purpose != "invoke"]


async def test_restart_after_a_negative_test_sends_nothing_until_new_arguments(
    reference_agent: StartAgent,
) -> None:
    """The issue's item 5: after a negative test, R then r re-sent the old invalid
    arguments and called it a negative test. A restarted run waits for arguments."""
    agent = reference_agent()
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions())
    try:
        procedure.set_arguments(APPENDIX_B_INVALID_ARGUMENTS, send_anyway=True)
        await procedure.run_all()
        assert procedure.run.verdict.outcome is RunOutcome.NEGATIVE_TEST_PASSED
        await procedure.restart()
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.verdict.waiting_for_arguments and run.verdict.outcome is RunOutcome.INCOMPLETE
    assert invokes(run) == [] and run.arguments is None and not run.send_anyway
    assert run.step(Step.ARGUMENTS).status is StepStatus.NOT_RUN
    assert [s.status for s in run.steps[:6]] == [StepStatus.PASSED] * 6


async def test_another_skill_is_a_new_run_that_keeps_the_card(
    reference_agent: StartAgent,
) -> None:
    """Choosing another skill keeps step 1 (the card is not fetched again) and leaves the
    invocations of the old skill with the old run."""
    agent = reference_agent()
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions())
    try:
        procedure.set_arguments(APPENDIX_B_ARGUMENTS)
        old = await procedure.run_all()
        procedure.select_skill(SKILL)
        run = procedure.run
        assert run is not old and run.past_invocations == [] and run.arguments is None
        assert run.step(Step.CARD) is old.step(Step.CARD) and run.card is old.card
        assert [ex.purpose for ex in run.exchanges] == ["agent card"]
        await procedure.run_all()
    finally:
        await procedure.aclose()
    assert run.verdict.waiting_for_arguments
    assert [ex.purpose for ex in run.exchanges].count("agent card") == 1
    assert old.verdict.outcome is RunOutcome.PASSED  # the old run keeps its verdict


async def test_invocations_stop_at_the_limit_and_say_so(
    reference_agent: StartAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each kept invocation holds its exchanges: past ``MAX_INVOCATIONS`` new arguments
    are refused with an error that says why, and the invocations made are kept."""
    from sia_tui.core import limits
    from sia_tui.core.errors import InvocationLimitReached

    monkeypatch.setattr(limits, "MAX_INVOCATIONS", 2)
    agent = reference_agent()
    procedure = Procedure(Target(agent.url, skill_id=SKILL), ClientOptions())
    try:
        for _ in range(2):
            procedure.set_arguments(APPENDIX_B_ARGUMENTS)
            await procedure.run_all()
        with pytest.raises(InvocationLimitReached, match="holds 2 invocations"):
            procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    finally:
        await procedure.aclose()
    assert len(procedure.run.invocations) == 2
    assert procedure.run.verdict.outcome is RunOutcome.PASSED
