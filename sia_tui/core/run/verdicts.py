"""How a run went and where it stands: ``RunVerdict`` (``run.verdict``), one implementation
of every verdict the surfaces show.

``run.verdict.outcome``, ``.summary``, ``.headline``, ``.at_fault``, ``.finished``... are
computed here from what the run recorded (``RunState``), on each access; nothing outside
this module recomputes them. What the run learned about the interface, the task and its
artifacts is ``run.answers`` (``answers.py``), which this module reads and never the reverse.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from sia_tui.core.codes import DetectedBy, ErrorCode, describe_code
from sia_tui.core.exchange import Exchange
from sia_tui.core.interface.threeway import DigestSource
from sia_tui.core.interface.threeway import odd_one_out as _odd_source
from sia_tui.core.run.answers import RunAnswers, consent_sentence
from sia_tui.core.run.evidence import Blame, FailureCategory, Party, StepStatus
from sia_tui.core.run.state import RunState, Step, StepResult
from sia_tui.core.task_state import TERMINAL_STATES, TaskState

if TYPE_CHECKING:  # the refusal grader loads with a negative test, the turns with a question
    from sia_tui.core.run.answer_types import InvocationFailure, Summary
    from sia_tui.core.run.refusal import Verdict
    from sia_tui.core.run.turns import Turn

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

    """Who is at fault and why (the step's message when nobody was named)."""


class RunVerdict:
    """How a run went and where it stands (``run.verdict``): read-only, computed from the
    run's state on each access, so it always says what the run says now."""

    __slots__ = ("_run",)

    def __init__(self, run: RunState) -> None:
        self._run = run

    # -- where the run is -----------------------------------------------------------------
    @property
    def waiting_for_arguments(self) -> bool:
        """Steps 1-6 passed and step 7 has neither arguments nor an example to take."""
        run = self._run
        return (
            run.next_step == FIRST_INVOCATION_STEP
            and run.arguments is None
            and not run.use_example
            and not _running(run)
        )

    @property
    def waiting_for_consent(self) -> bool:
        """Step 8 waits for the user's yes: it is next, the document asks for consent
        (``run.answers.consent_need``) and none was given for this invocation."""
        run = self._run
        return (
            run.next_step == Step.DELEGATION
            and not run.consent
            and not _running(run)
            and RunAnswers(run).consent_need is not None
        )

    @property
    def open_turn(self) -> Turn | None:
        """The question of a task stopped in INPUT_REQUIRED or AUTH_REQUIRED that nobody
        answered yet (``Procedure.reply`` answers it), while step 9 waits; None otherwise."""
        run = self._run
        turn = run.turns[-1] if run.turns else None
        if turn is None or turn.answered or run.next_step != Step.RECEPTION:
            return None
        if run.task is not None and run.task.state in TERMINAL_STATES:
            return None  # cancelled while it waited: step 9 concludes, nobody is asked
        return turn

    @property
    def waiting_for_reply(self) -> bool:
        """Step 9 waits for the user's reply to the task's question (``open_turn``)."""
        return self.open_turn is not None and not _running(self._run)

    @property
    def finished(self) -> bool:
        """Nothing more can run without new input (arguments, consent, a reply), and no step
        is running."""
        if _running(self._run):
            return False
        return (
            self._run.next_step is None
            or self.waiting_for_arguments
            or self.waiting_for_consent
            or self.waiting_for_reply
        )

    # -- how it went ----------------------------------------------------------------------
    @property
    def outcome(self) -> RunOutcome:
        """passed, failed, incomplete, cancelled or negative_test_passed; a step that did
        not run is never counted as passed."""
        run = self._run
        if run.failed_step is not None:
            return RunOutcome.FAILED
        if any(s.status is StepStatus.CANCELLED for s in run.steps):
            return RunOutcome.CANCELLED
        refused = self.negative_test_verdict
        if refused is not None:
            from sia_tui.core.run.refusal import Grade  # loaded with the verdict

            if refused.grade is not Grade.FAIL:
                return RunOutcome.NEGATIVE_TEST_PASSED
        if all(s.status is StepStatus.PASSED for s in run.steps):
            return RunOutcome.PASSED
        return RunOutcome.INCOMPLETE

    @property
    def exit_code(self) -> int:
        """The exit status a command about this one run ends with, and its reports say:
        the outcome's, but 2 when the failed step is a usage problem (the flags asked for
        something the agent's interface does not offer: the caller's to fix, not a verdict
        on the agent)."""
        failed = self._run.failed_step
        if failed is not None and failed.category is FailureCategory.USAGE:
            return 2  # e.g. --args example without an example, --mode the document lacks
        return self.outcome.exit_code

    @property
    def negative_test(self) -> bool:
        """True when invalid arguments were sent on purpose (step 7 found them invalid);
        arguments that validate are never a negative test, whatever the caller asked."""
        from sia_tui.core.run.later_evidence import ArgumentsEvidence

        checked = self._run.evidence(ArgumentsEvidence)
        return checked is not None and checked.negative_test

    @property
    def negative_test_verdict(self) -> Verdict | None:
        """A deliberate negative test's verdict (the refusal grader's, as ``probe`` grades),
        from the step that graded it (8 for a REJECTED task, else 9): None when the run sent
        valid arguments or the agent's answer is still to come."""
        from sia_tui.core.run.later_evidence import DelegationEvidence, ReceptionEvidence

        delegation = self._run.evidence(DelegationEvidence)
        reception = self._run.evidence(ReceptionEvidence)
        for graded in (delegation, reception):
            if graded is not None and graded.refusal is not None:
                return graded.refusal
        if delegation is not None and delegation.expected_rejection:
            # Sessions saved before the verdict was kept recorded only that it passed.
            from sia_tui.core.run.refusal import Grade, Verdict

            return Verdict(Grade.PASS, "INV3", f"{TaskState.REJECTED} with input_invalid")
        return None

    @property
    def summary(self) -> str:
        """Why the run has its outcome, in one sentence every surface prints as is."""
        return self._explain().text

    @property
    def headline(self) -> str:
        """The outcome and why: "FAILED at step 4, ...", "PASSED: all eleven steps passed"."""
        label = self.outcome.label
        said = self._explain()
        # "FAILED at step 4, ..." reads on; any other sentence follows a colon.
        return f"{label} {said.text}" if said.failed_at is not None else f"{label}: {said.text}"

    def _explain(self) -> Summary:
        """The summary with the step it names, so the headline needs not read the sentence."""
        run = self._run
        verdict = self.outcome
        failed = run.failed_step
        if failed is not None:
            code = f" ({failed.code}, {failed.origin or DetectedBy.LOCAL})" if failed.code else ""
            text = f"at step {failed.step}, {failed.title}{code}: {self._why(failed)}"
        elif verdict is RunOutcome.PASSED:
            text = "all eleven steps passed"
        elif verdict is RunOutcome.NEGATIVE_TEST_PASSED:
            refused = self.negative_test_verdict
            assert refused is not None  # the outcome says there is one
            from sia_tui.core.run.refusal import negative_test_sentence

            text = negative_test_sentence(refused)
        elif verdict is RunOutcome.CANCELLED:
            text = "the task was cancelled as asked; its output was not checked"
        else:
            text = self._not_run_reason()
        if run.from_cache:
            text += "; the document came from the cache (describe_skill was not called, RULES CP12)"
        from sia_tui.core.run.answer_types import Summary

        return Summary(text, failed)

    def _not_run_reason(self) -> str:
        run = self._run
        waiting = [s.step for s in run.steps if s.status is StepStatus.NOT_RUN]
        if _running(run):
            return "a step is still running"
        span = f"steps {waiting[0]}-{waiting[-1]}" if len(waiting) > 1 else f"step {waiting[0]}"
        if run.plain is not None:  # nothing of the draft is graded past what ran
            what = "held" if run.plain.held else "sent"
            return f"{span} did not run: a plain A2A message was {what} instead of an invocation"
        if self.waiting_for_arguments:
            return f"{span} did not run: no arguments were given"
        asked = self.open_turn
        if asked is not None:
            # RULES INV11: an interrupted task is incomplete, not failed, until it is answered.
            return (
                f"{span} did not run: the task waits for {asked.needs} ({asked.state}); "
                f"the agent asks: {asked.question}"
            )
        need = RunAnswers(run).consent_need if self.waiting_for_consent else None
        if need is not None:
            return f"{span} did not run: {consent_sentence(need, 'the invocation')}"
        return f"{span} did not run"

    # -- who is at fault ------------------------------------------------------------------
    @property
    def at_fault(self) -> Blame | None:
        """Who is at fault for the failed step, and why (None: nothing failed): the blame
        the engine recorded, else derived from the step's code."""
        failed = self._run.failed_step
        if failed is None:
            return None
        return failed.blame or default_blame(failed)

    def _why(self, failed: StepResult) -> str:
        """Who is at fault for the failed step and why, else the step's own message."""
        blame = self.at_fault
        return blame.statement if blame else failed.message

    @property
    def invocation_failure(self) -> InvocationFailure | None:
        """The failure once the invocation was sent (steps 8-11): the task's own verdict;
        None when nothing failed, or the failure came before anything was delegated."""
        failed = self._run.failed_step
        if failed is None or failed.step < Step.DELEGATION:
            return None
        from sia_tui.core.run.answer_types import InvocationFailure

        return InvocationFailure(failed.step, code_and_origin(failed), self._why(failed))

    @property
    def fault_exchanges(self) -> list[Exchange]:
        """The recorded exchanges whose bytes show the failure, in order (a vendor's evidence).

        A step that sends nothing points at the exchange it judged: the card for a card
        fault (step 2, or step 4 when the advertised digest is the odd one out), the
        describe_skill answer for the document (steps 4-6), the invocation for its output
        (10).
        """
        run = self._run
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


def unsent_turn(run: RunState) -> Turn | None:
    """The answered turn whose reply step 9 sends next, if any."""
    turn = run.turns[-1] if run.turns else None
    return turn if turn is not None and turn.answered and turn.sent_at is None else None


def code_and_origin(step: StepResult) -> str:
    """The step's draft code and where it was found: "output_invalid (local)"; "" without."""
    return f"{step.code} ({step.origin or DetectedBy.LOCAL})" if step.code else ""


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


def _running(run: RunState) -> bool:
    return any(s.status is StepStatus.RUNNING for s in run.steps)
