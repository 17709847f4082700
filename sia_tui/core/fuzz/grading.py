"""Grading a fuzz case from the run the engine made of it: no verdict is computed twice.

An invalid case is a deliberate negative test, so its verdict is the refusal grader's
(``run/refusal.py``, the one ``probe`` and ``check --send-anyway`` use: same RULES ids, same
words). A valid case is an ordinary invocation: the engine's steps 8-10 say whether the
agent refused it and whether its result and records validate (RULES INV3, CP10).
"""

from __future__ import annotations

from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.fuzz.results import FindingKind
from sia_tui.core.run.read_model import Run, Step
from sia_tui.core.run.refusal import Grade, Verdict
from sia_tui.core.run.verdicts import RunOutcome
from sia_tui.core.task_state import TaskState

Graded = tuple[Verdict, FindingKind | None]


def grade_valid(run: Run) -> Graded:
    """The verdict on valid arguments: not refused with input_invalid (RULES INV3), and the
    result and every record validate against their schemas (step 10, RULES CP10)."""
    failed = run.failed_step
    if failed is None:
        if run.verdict.outcome is RunOutcome.PASSED:
            return Verdict(Grade.PASS, "CP10", "completed; the output and records validate"), None
        return Verdict(Grade.SKIP, "CP9", f"incomplete: {run.verdict.summary}"), None
    said = f"step {failed.step}: {failed.message}"
    if failed.step == Step.OUTPUT:
        rule = next((f.rule for f in failed.findings if f.rule), failed.rule)
        return Verdict(Grade.FAIL, rule, said), FindingKind.OUTPUT_INVALID
    remote = failed.origin is DetectedBy.REMOTE
    if failed.code is ErrorCode.INPUT_INVALID and remote:
        reason = f"valid arguments refused with input_invalid (RULES INV3); {said}"
        return Verdict(Grade.FAIL, "INV3", reason), FindingKind.VALID_REFUSED
    if failed.code is ErrorCode.OUTPUT_INVALID and remote:
        # The agent caught its own output breaking its schema (RULES INV8): still its bug.
        reason = f"valid arguments, but the agent's output does not validate; {said}"
        return Verdict(Grade.FAIL, "CP10", reason), FindingKind.OUTPUT_INVALID
    if failed.code is not None and remote:
        # A domain refusal of valid arguments (constraint_rejected...) is the agent's right.
        return Verdict(Grade.WARN, failed.rule, f"answered {failed.code}; {said}"), None
    return Verdict(Grade.FAIL, failed.rule, said), FindingKind.VALID_FAILED


def grade_invalid(run: Run) -> Graded:
    """The refusal grader's verdict on invalid arguments (RULES INV3, ERR3, ERR5)."""
    verdict = run.verdict.negative_test_verdict
    if verdict is None:
        failed = run.failed_step
        if failed is None:
            return Verdict(Grade.SKIP, "INV3", f"incomplete: {run.verdict.summary}"), None
        said = f"step {failed.step}: {failed.message}"
        return Verdict(Grade.FAIL, "INV3", said), FindingKind.WRONG_REFUSAL
    if verdict.grade is not Grade.FAIL:
        return verdict, None
    refused = run.task is not None and run.task.state in (TaskState.REJECTED, TaskState.FAILED)
    return verdict, FindingKind.WRONG_REFUSAL if refused else FindingKind.INVALID_ACCEPTED
