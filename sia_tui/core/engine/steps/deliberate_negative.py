"""Steps 8-9 of a deliberate negative test: the agent's answer, judged by the one grader.

Arguments that fail step 7 were sent anyway. A REJECTED task is graded at step 8; a task
the agent took is followed to its final state and graded at step 9, so the verdict does not
depend on the response mode. ``sia-tui probe`` grades its invalid-argument probes with the
same grader (``run/refusal.py``), so the two never disagree (RULES INV3, ERR1-ERR5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from sia_tui.core.a2a.task_views import Task
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.engine.outcome import StepEnds, StepFailed
from sia_tui.core.engine.steps.remote_errors import details_as_findings, task_error_of
from sia_tui.core.run.agent_answer import (
    ENDED_IN_ERROR,
    Answer,
    Observation,
    observation_of_error,
    read_remote_error,
)
from sia_tui.core.run.evidence import Blame, NextAction, Party, StepStatus
from sia_tui.core.run.later_evidence import DelegationEvidence, ReceptionEvidence
from sia_tui.core.run.refusal import (
    INVALID_ARGUMENTS,
    Grade,
    details_pointers,
    grade,
    negative_test_sentence,
)
from sia_tui.core.run.state import Step

if TYPE_CHECKING:
    from sia_tui.core.engine.context import EngineContext
    from sia_tui.core.run.read_model import StepResult


def judge_refusal(
    ctx: EngineContext,
    task: Task,
    result: StepResult,
    evidence: DelegationEvidence | ReceptionEvidence,
) -> NoReturn:
    """Grade the answer to the invalid arguments; the step ends with the verdict.

    A pass or a warning concludes the run (``negative_test_passed``); a failure fails the
    step with the agent's own code (remote) when it gave one, else with input_invalid, the
    code found here at step 7 that the agent should have answered.
    """
    error = read_remote_error(task) if task.state in ENDED_IN_ERROR else None
    observed = (
        observation_of_error(error)
        if error is not None
        else Observation(Answer.TASK, state=task.state)
    )
    pointers = details_pointers(ctx.run.step(Step.ARGUMENTS).findings)
    verdict = evidence.refusal = grade(INVALID_ARGUMENTS, observed, pointers)
    findings = []
    if error is not None:
        findings = details_as_findings(error) + error.findings
        result.findings.extend(findings)
        evidence.error = task_error_of(error, result.step)
    sentence = negative_test_sentence(verdict)
    if verdict.grade is not Grade.FAIL:
        if isinstance(evidence, DelegationEvidence):
            evidence.expected_rejection = True
        raise StepEnds(
            sentence,
            status=StepStatus.PASSED,
            reason=f"not needed: the negative test ended at step {result.step} as expected",
        )
    code = observed.code or ErrorCode.INPUT_INVALID
    raise StepFailed(
        sentence,
        code=code,
        origin=DetectedBy.REMOTE if observed.code else DetectedBy.LOCAL,
        findings=findings,
        hint=f"The agent should answer {verdict.should_have}.",
        blame=Blame(party=Party.AGENT, statement=sentence),
        next_action=NextAction.SHOW_RESULTS,
    )
