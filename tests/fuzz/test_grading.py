"""A valid case graded from the run the engine made of it: which failure is whose finding."""

from __future__ import annotations

import dataclasses

import pytest

from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.fuzz.grading import grade_valid
from sia_tui.core.fuzz.results import FindingKind
from sia_tui.core.run.read_model import Run, Step, StepResult, StepStatus, Target
from sia_tui.core.run.refusal import Grade


def failed_at(step: Step, code: ErrorCode | None, origin: DetectedBy | None) -> Run:
    run = Run(target=Target("http://agent.example"))
    for index in range(step - 1):
        run.steps[index] = dataclasses.replace(run.steps[index], status=StepStatus.PASSED)
    run.steps[step - 1] = dataclasses.replace(
        StepResult.fresh(step), status=StepStatus.FAILED, code=code, origin=origin, message="m"
    )
    return run


@pytest.mark.parametrize(
    ("step", "code", "origin", "grade", "rule", "finding"),
    [
        # RULES INV3: valid arguments are never input_invalid.
        (
            Step.DELEGATION,
            ErrorCode.INPUT_INVALID,
            DetectedBy.REMOTE,
            Grade.FAIL,
            "INV3",
            FindingKind.VALID_REFUSED,
        ),
        # RULES CP10, INV8: output that breaks its schema, found here or by the agent.
        (
            Step.OUTPUT,
            ErrorCode.OUTPUT_INVALID,
            DetectedBy.LOCAL,
            Grade.FAIL,
            "CP10",
            FindingKind.OUTPUT_INVALID,
        ),
        (
            Step.RECEPTION,
            ErrorCode.OUTPUT_INVALID,
            DetectedBy.REMOTE,
            Grade.FAIL,
            "CP10",
            FindingKind.OUTPUT_INVALID,
        ),
        # A domain refusal of valid input is the agent's right: a warning.
        (
            Step.DELEGATION,
            ErrorCode.CONSTRAINT_REJECTED,
            DetectedBy.REMOTE,
            Grade.WARN,
            "CP8",
            None,
        ),
        # No usable answer at all.
        (Step.DELEGATION, None, None, Grade.FAIL, "CP8", FindingKind.VALID_FAILED),
    ],
)
def test_each_failure_of_a_valid_case_has_its_finding(
    step: Step,
    code: ErrorCode | None,
    origin: DetectedBy | None,
    grade: Grade,
    rule: str,
    finding: FindingKind | None,
) -> None:
    verdict, found = grade_valid(failed_at(step, code, origin))
    assert (verdict.grade, verdict.rule, found) == (grade, rule, finding)
