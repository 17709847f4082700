"""Two answers of a ``Run`` that every surface reads instead of deciding for itself: whether
an invocation needs the user's consent, and the task's failure once it was sent."""

from __future__ import annotations

from typing import Any

from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.run import Blame, Party, Run, StepStatus, Target

AUTHORITIES: dict[str, Any] = {
    "execute": {"default_mode": "execute", "approval_may_be_required": True},
    "recommend_only": {"default_mode": "recommend_only", "approval_may_be_required": True},
    "observe_only": {"default_mode": "observe_only", "approval_may_be_required": False},
}


def _run(authority: Any = None) -> Run:
    run = Run(Target("http://127.0.0.1:1/"))
    if authority is not None:
        run.document = {"authority": authority}
    return run


def test_an_execute_skill_needs_consent_and_says_why() -> None:
    """RULES SID5: authority describes, it never authorizes; step 8 waits, the TUI asks and
    the prober holds back valid invocations, all from this one answer."""
    need = _run(AUTHORITIES["execute"]).answers.consent_need
    assert need is not None
    assert need.authority == "execute" and need.approval
    assert need.reason == (
        "the document declares execute authority and that approval may be required"
    )
    alone = _run(
        {"default_mode": "execute", "approval_may_be_required": False}
    ).answers.consent_need
    assert alone is not None and alone.reason == "the document declares execute authority"


def test_approval_may_be_required_needs_consent_even_for_a_recommendation() -> None:
    """A recommend_only skill whose document says approval may apply (the reference agent's
    propose_capacity_upgrade): its invocation is not ours to send unasked either. This used
    to need no consent."""
    need = _run(AUTHORITIES["recommend_only"]).answers.consent_need
    assert need is not None
    assert need.reason == "the document declares that approval may be required"


def test_a_skill_that_does_not_act_needs_no_consent() -> None:
    assert _run(AUTHORITIES["observe_only"]).answers.consent_need is None
    quiet = {"default_mode": "recommend_only", "approval_may_be_required": False}
    assert _run(quiet).answers.consent_need is None
    assert _run().answers.consent_need is None  # no document yet
    assert _run("execute").answers.consent_need is None  # not an authority object
    truthy = {"default_mode": "observe_only", "approval_may_be_required": "yes"}
    assert _run(truthy).answers.consent_need is None  # only the boolean true (RULES SID5)


def _failed(run: Run, step: int, code: ErrorCode | None = None) -> None:
    result = run.steps[step - 1]
    result.status = StepStatus.FAILED
    result.code = code
    result.origin = DetectedBy.LOCAL if code else None
    result.message = f"step {step} failed"


def test_a_failure_after_delegation_is_the_invocations_with_code_and_origin() -> None:
    run = _run()
    _failed(run, 10, ErrorCode.OUTPUT_INVALID)
    run.steps[9].blame = Blame(party=Party.AGENT, statement="the result does not validate")
    failure = run.verdict.invocation_failure
    assert failure is not None
    assert (failure.step, failure.code, failure.why) == (
        10,
        "output_invalid (local)",
        "the result does not validate",
    )


def test_a_failure_at_delegation_without_a_code_is_the_invocations_too() -> None:
    run = _run()
    _failed(run, 8)
    failure = run.verdict.invocation_failure
    assert failure is not None and failure.step == 8 and failure.code == ""


def test_nothing_was_invoked_when_a_step_before_delegation_failed() -> None:
    run = _run()
    _failed(run, 7, ErrorCode.INPUT_INVALID)
    assert run.verdict.invocation_failure is None
    assert _run().verdict.invocation_failure is None  # nothing failed
