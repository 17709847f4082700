"""The answers a ``Run`` gives: one implementation of every verdict the surfaces show.

``Run``'s properties call these functions; nothing outside the engine recomputes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from sia_tui.core.codes import DetectedBy, ErrorCode, describe_code
from sia_tui.core.exchange import Exchange
from sia_tui.core.interface.threeway import DigestSource
from sia_tui.core.interface.threeway import odd_one_out as _odd_source
from sia_tui.core.run.answers import consent_refusal, waiting_for_consent
from sia_tui.core.run.evidence import (
    Blame,
    DelegationEvidence,
    FailureCategory,
    Party,
    ReceptionEvidence,
    StepStatus,
)
from sia_tui.core.run.refusal import Grade, Verdict, negative_test_sentence
from sia_tui.core.run.state import RunState, Step, StepResult
from sia_tui.core.run.turns import Turn
from sia_tui.core.task_state import TERMINAL_STATES, TaskState

#: The first step that needs arguments: without them the run pauses before it.
FIRST_INVOCATION_STEP = Step.ARGUMENTS
#: Codes an agent uses to say the request itself was wrong (RULES ERR3: REJECTED).
CALLER_CODES = frozenset(
    {ErrorCode.INPUT_INVALID, ErrorCode.CONSTRAINT_REJECTED, ErrorCode.AUTHORIZATION_FAILED}
)


class RunOutcome(StrEnum):
    """The verdict of a whole run."""

    #: All eleven steps passed.
    PASSED = "passed"
    #: A step failed (RULES CP0: at most one).
    FAILED = "failed"
    #: Nothing failed, but steps that should run did not (no arguments, still running).
    INCOMPLETE = "incomplete"
    #: The user cancelled the task and the agent did cancel it.
    CANCELLED = "cancelled"
    #: A deliberate negative test: the agent rejected invalid input with input_invalid.
    NEGATIVE_TEST_PASSED = "negative_test_passed"

    @property
    def label(self) -> str:
        """The outcome in capitals: "PASSED", "FAILED", "INCOMPLETE", "NEGATIVE TEST PASSED"."""
        return self.value.replace("_", " ").upper()

    @property
    def exit_code(self) -> int:
        """0 passed, 1 failed, 3 incomplete or cancelled (2 is left to usage errors)."""
        if self in (RunOutcome.PASSED, RunOutcome.NEGATIVE_TEST_PASSED):
            return 0
        return 1 if self is RunOutcome.FAILED else 3


#: Exit statuses from the least to the most serious: a failure outweighs a run that could
#: not finish, and unreadable input (2) outweighs both.
_EXIT_SEVERITY = (0, 3, 1, 2)


def worst_exit_code(codes: Iterable[int]) -> int:
    """The most serious of ``codes`` (0 when there are none): the exit status of a command
    about several runs (replay, rerun, report of a session of several invocations)."""
    return max(codes, key=_EXIT_SEVERITY.index, default=0)


# -- where the run is ---------------------------------------------------------------------
def waiting_for_arguments(run: RunState) -> bool:
    """Steps 1-6 passed and step 7 has neither arguments nor an example to take."""
    return (
        run.next_step == FIRST_INVOCATION_STEP
        and run.arguments is None
        and not run.use_example
        and not _running(run)
    )


def open_turn(run: RunState) -> Turn | None:
    """The question the task waits to have answered, while step 9 waits for a reply."""
    turn = run.turns[-1] if run.turns else None
    if turn is None or turn.answered or run.next_step != Step.RECEPTION:
        return None
    if run.task is not None and run.task.state in TERMINAL_STATES:
        return None  # cancelled while it waited: step 9 concludes, nobody is asked
    return turn


def unsent_turn(run: RunState) -> Turn | None:
    """The answered turn whose reply step 9 sends next, if any."""
    turn = run.turns[-1] if run.turns else None
    return turn if turn is not None and turn.answered and turn.sent_at is None else None


def waiting_for_reply(run: RunState) -> bool:
    """The task stopped in INPUT_REQUIRED or AUTH_REQUIRED and nobody answered yet."""
    return open_turn(run) is not None and not _running(run)


def finished(run: RunState) -> bool:
    """Nothing more can run without new input (arguments, consent, a reply), and no step
    is running."""
    if _running(run):
        return False
    return (
        run.next_step is None
        or waiting_for_arguments(run)
        or waiting_for_consent(run)
        or waiting_for_reply(run)
    )


def outcome(run: RunState) -> RunOutcome:
    """The run's verdict; a step that did not run is never counted as passed."""
    if run.failed_step is not None:
        return RunOutcome.FAILED
    if any(s.status is StepStatus.CANCELLED for s in run.steps):
        return RunOutcome.CANCELLED
    refused = negative_test_verdict(run)
    if refused is not None and refused.grade is not Grade.FAIL:
        return RunOutcome.NEGATIVE_TEST_PASSED
    if all(s.status is StepStatus.PASSED for s in run.steps):
        return RunOutcome.PASSED
    return RunOutcome.INCOMPLETE


def negative_test_verdict(run: RunState) -> Verdict | None:
    """The refusal grader's verdict on a deliberate negative test, from the step that
    graded it (8 for a REJECTED task, else 9); None when the run was no negative test or
    the agent's answer did not come yet."""
    delegation = run.evidence(DelegationEvidence)
    reception = run.evidence(ReceptionEvidence)
    for graded in (delegation, reception):
        if graded is not None and graded.refusal is not None:
            return graded.refusal
    if delegation is not None and delegation.expected_rejection:
        # Sessions saved before the verdict was kept recorded only that it passed.
        return Verdict(Grade.PASS, "INV3", f"{TaskState.REJECTED} with input_invalid")
    return None


@dataclass(frozen=True)
class Summary:
    """Why the run has its outcome: the sentence, and the step it failed at (if any)."""

    text: str
    #: The failed step: the sentence then names it ("at step 4, ...").
    failed_at: StepResult | None = None


def summary(run: RunState) -> str:
    """Why the run has its outcome, in one sentence every surface prints as is."""
    return explain(run).text


def explain(run: RunState) -> Summary:
    """The summary with the step it names, so the headline needs not read the sentence."""
    verdict = outcome(run)
    failed = run.failed_step
    if failed is not None:
        code = f" ({failed.code}, {failed.origin or DetectedBy.LOCAL})" if failed.code else ""
        text = f"at step {failed.step}, {failed.title}{code}: {_why(run, failed)}"
    elif verdict is RunOutcome.PASSED:
        text = "all eleven steps passed"
    elif verdict is RunOutcome.NEGATIVE_TEST_PASSED:
        refused = negative_test_verdict(run)
        assert refused is not None  # the outcome says there is one
        text = negative_test_sentence(refused)
    elif verdict is RunOutcome.CANCELLED:
        text = "the task was cancelled as asked; its output was not checked"
    else:
        text = _not_run_reason(run)
    if run.from_cache:
        text += "; the document came from the cache (describe_skill was not called, RULES CP12)"
    return Summary(text, failed)


def headline(run: RunState) -> str:
    """The outcome and why: "FAILED at step 4, ...", "INCOMPLETE: steps 7-11 did not run..."."""
    label = outcome(run).label
    said = explain(run)
    # "FAILED at step 4, ..." reads on; any other sentence follows a colon.
    return f"{label} {said.text}" if said.failed_at is not None else f"{label}: {said.text}"


def _not_run_reason(run: RunState) -> str:
    waiting = [s.step for s in run.steps if s.status is StepStatus.NOT_RUN]
    if _running(run):
        return "a step is still running"
    span = f"steps {waiting[0]}-{waiting[-1]}" if len(waiting) > 1 else f"step {waiting[0]}"
    if run.plain is not None:  # nothing of the draft is graded past what ran
        what = "held" if run.plain.held else "sent"
        return f"{span} did not run: a plain A2A message was {what} instead of an invocation"
    if waiting_for_arguments(run):
        return f"{span} did not run: no arguments were given"
    asked = open_turn(run)
    if asked is not None:
        # RULES INV11: an interrupted task is incomplete, not failed, until it is answered.
        return (
            f"{span} did not run: the task waits for {asked.needs} ({asked.state}); "
            f"the agent asks: {asked.question}"
        )
    held = consent_refusal(run)
    if held:
        return f"{span} did not run: {held}"
    return f"{span} did not run"


def _running(run: RunState) -> bool:
    return any(s.status is StepStatus.RUNNING for s in run.steps)


# -- the invocation ----------------------------------------------------------------------
@dataclass(frozen=True)
class InvocationFailure:
    """The failed step of a run whose invocation was sent (steps 8-11)."""

    step: int
    code: str
    """The draft code and where it was found (``code_and_origin``); "" without a code."""
    why: str
    """Who is at fault and why (the step's message when nobody was named)."""


def invocation_failure(run: RunState) -> InvocationFailure | None:
    """The run's failure once the invocation was sent; None when nothing failed, or the
    failure came before anything was delegated (steps 1-7)."""
    failed = run.failed_step
    if failed is None or failed.step < Step.DELEGATION:
        return None
    return InvocationFailure(failed.step, code_and_origin(failed), _why(run, failed))


def code_and_origin(step: StepResult) -> str:
    """The step's draft code and where it was found: "output_invalid (local)"; "" without."""
    return f"{step.code} ({step.origin or DetectedBy.LOCAL})" if step.code else ""


# -- who is at fault ----------------------------------------------------------------------
def _why(run: RunState, failed: StepResult) -> str:
    """Who is at fault for the failed step and why, else the step's own message."""
    blame = at_fault(run)
    return blame.statement if blame else failed.message


def at_fault(run: RunState) -> Blame | None:
    """The failed step's blame as the engine recorded it, else derived from its code."""
    failed = run.failed_step
    if failed is None:
        return None
    return failed.blame or default_blame(failed)


def default_blame(step: StepResult) -> Blame:
    """Who is at fault for a failure whose step named nobody (old sessions, plain codes)."""
    if step.category is FailureCategory.INTERNAL:
        return Blame(party=Party.TOOL, statement="sia-tui itself failed: " + step.message)
    if step.category is FailureCategory.USAGE:
        return Blame(party=Party.CALLER, statement=step.message)
    if step.category is FailureCategory.TRANSPORT:
        return Blame(party=Party.AGENT, statement=step.message)
    if step.code in CALLER_CODES:
        who = "the agent" if step.origin is DetectedBy.REMOTE else "sia-tui"
        return Blame(
            party=Party.CALLER, statement=f"{who} found the request invalid: {step.message}"
        )
    info = describe_code(step.code) if step.code else None
    return Blame(party=Party.AGENT, statement=info.meaning if info else step.message)


def fault_exchanges(run: RunState) -> list[Exchange]:
    """The recorded exchanges whose bytes show the failure, in order (a vendor's evidence).

    A step that sends nothing points at the exchange it judged: the card for a card
    fault (step 2, or step 4 when the advertised digest is the odd one out), the
    describe_skill answer for the document (steps 4-6), the invocation for its output (10).
    """
    failed = run.failed_step
    if failed is None:
        return []
    by_step = {s.step: s.exchanges for s in run.steps}
    card, describe = (Step.CARD,), (Step.DESCRIBE,)
    numbers: tuple[int, ...] = (failed.step,)
    if failed.step == Step.SKILL:
        numbers = card
    elif failed.step == Step.DIGESTS:
        odd = _odd_source(run.digests.advertised, run.digests.returned, run.digests.computed)
        if odd is None:  # both compared: the card and the describe_skill answer
            numbers = card + describe
        else:
            numbers = card if odd is DigestSource.ADVERTISED else describe
    elif failed.step in (Step.DOCUMENT, Step.SCHEMAS):
        numbers = describe
    elif failed.step == Step.OUTPUT:
        numbers = (Step.DELEGATION, Step.RECEPTION)
    seqs = {seq for n in numbers for seq in by_step.get(n, [])}
    return [ex for ex in run.exchanges if ex.seq in seqs]
