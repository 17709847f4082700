"""``Run``: the read model of a run of the procedure, and the answers it gives every surface.

The TUI screens, ``check`` (text and ``--json``), the reports, replay/rerun and compose read
its answers (``finished``, ``outcome``, ``at_fault``, ``odd_one_out``, ``result_verdict``...)
and compute no verdict of their own. What a run records is ``RunState`` (``run_state.py``);
the answers are implemented over it in ``verdicts.py`` (the outcome, who is at fault) and
``answers.py`` (the interface, the task, the artifacts); each step's typed evidence is in
``evidence.py``. ``Step``, ``StepResult``, ``Target``... are importable from here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.auth.plan import AuthPlan
from sia_tui.core.a2a.views import StreamEvent
from sia_tui.core.consent import ConsentNeed
from sia_tui.core.exchange import Exchange
from sia_tui.core.interface.threeway import DigestRow
from sia_tui.core.run import answers, verdicts
from sia_tui.core.run.evidence import Blame, TaskError
from sia_tui.core.run.evidence import StepStatus as StepStatus
from sia_tui.core.run.refusal import Verdict
from sia_tui.core.run.state import STEP_TITLES as STEP_TITLES
from sia_tui.core.run.state import Digests as Digests
from sia_tui.core.run.state import RecordResult as RecordResult
from sia_tui.core.run.state import RunState
from sia_tui.core.run.state import Step as Step
from sia_tui.core.run.state import StepResult as StepResult
from sia_tui.core.run.state import Target as Target
from sia_tui.core.run.turns import Turn
from sia_tui.core.trust.records import LockComparison, SignatureCheck

if TYPE_CHECKING:
    from sia_tui.core.a2a.error_data import A2AErrorData
    from sia_tui.core.wire import WireReport


@dataclass(repr=False)  # RunState's short repr: a run may hold megabytes
class Run(RunState):
    """Everything one run of the procedure learned, and every answer it gives."""

    #: The invocations made before the current one, oldest first: each the run as that
    #: invocation left it (steps 1-6 shared, its own steps 7-11, arguments, task and
    #: exchanges), never changed again. The current invocation is the run itself.
    past_invocations: list[Run] = field(default_factory=list)

    # -- the invocations ---------------------------------------------------------------
    @property
    def invocations(self) -> list[Invocation]:
        """Every invocation of this run in order, each with its own verdict; the last is
        the run itself (a run that invoked nothing is one "invocation" of steps 1-6)."""
        runs = [*self.past_invocations, self]
        return [Invocation(number, len(runs), run) for number, run in enumerate(runs, 1)]

    # -- where the run is ---------------------------------------------------------------
    @property
    def live_events(self) -> list[StreamEvent]:
        """This invocation's stream events while it is in flight, for a live view; [] once
        the run is finished, when every surface reads what the steps recorded (a reopened
        session, which keeps no events, shows the same)."""
        return [] if self.finished else self.stream_events

    @property
    def auth_plan(self) -> AuthPlan | None:
        """What the skill requires (the card's security requirements) and what is sent."""
        return answers.auth_plan(self)

    @property
    def waiting_for_arguments(self) -> bool:
        """Steps 1-6 are done and steps 7-11 wait for arguments nobody gave."""
        return verdicts.waiting_for_arguments(self)

    @property
    def waiting_for_consent(self) -> bool:
        """Step 8 waits for the user's yes: the document asks for consent (``consent_need``)
        and none was given for this invocation."""
        return answers.waiting_for_consent(self)

    @property
    def open_turn(self) -> Turn | None:
        """The question of a task stopped in INPUT_REQUIRED or AUTH_REQUIRED that nobody
        answered yet (``Procedure.reply`` answers it); None otherwise."""
        return verdicts.open_turn(self)

    @property
    def waiting_for_reply(self) -> bool:
        """Step 9 waits for the user's reply to the task's question (``open_turn``)."""
        return verdicts.waiting_for_reply(self)

    @property
    def finished(self) -> bool:
        """True when nothing more can run without new input (and no step is running)."""
        return verdicts.finished(self)

    @property
    def outcome(self) -> verdicts.RunOutcome:
        """passed, failed, incomplete, cancelled or negative_test_passed."""
        return verdicts.outcome(self)

    @property
    def summary(self) -> str:
        """Why the run has its outcome, in one sentence, the same on every surface."""
        return verdicts.summary(self)

    @property
    def headline(self) -> str:
        """The outcome and why: "FAILED at step 4, ...", "PASSED: all eleven steps passed"."""
        return verdicts.headline(self)

    @property
    def at_fault(self) -> Blame | None:
        """Who is at fault for the failed step, and why (None: nothing failed)."""
        return verdicts.at_fault(self)

    @property
    def negative_test_verdict(self) -> Verdict | None:
        """A deliberate negative test's verdict (the refusal grader's, as ``probe`` grades):
        None when the run sent valid arguments or the agent's answer is still to come."""
        return verdicts.negative_test_verdict(self)

    @property
    def a2a_error(self) -> A2AErrorData | None:
        """The A2A error the agent answered where the run stopped, as data (every binding)."""
        return answers.a2a_error(self)

    @property
    def wire(self) -> WireReport:
        """The A2A wire check of every exchange this invocation recorded, and of each push
        delivery its own receiver accepted: every surface reads it (docs/WIRE-CHECKS.md); its
        errors change no verdict unless the target is ``strict_wire``."""
        from sia_tui.core.wire import wire_report

        deliveries = self.push.deliveries if self.push is not None else ()
        return wire_report(self.exchanges, deliveries)

    @property
    def fault_exchanges(self) -> list[Exchange]:
        """The recorded exchanges whose bytes show the failure (the card for a card fault)."""
        return verdicts.fault_exchanges(self)

    # -- the interface -------------------------------------------------------------------
    @property
    def advertised_skills(self) -> list[str]:
        """The domain skills the card's schema-interface extension binds (RULES ADV1)."""
        return answers.advertised_skills(self.card)

    @property
    def default_skill(self) -> str | None:
        """The skill taken when none was chosen: the one advertised, or the one a contract
        lock pins for this agent; None when the user must choose."""
        return answers.default_skill(self)

    @property
    def validated_document(self) -> dict[str, Any] | None:
        """The document once steps 4-6 passed (RULES CP0: nothing unvalidated is used)."""
        return answers.validated_document(self)

    @property
    def describe_task_id(self) -> str | None:
        """The describe_skill task id (None when the document came from the cache)."""
        return answers.describe_task_id(self)

    @property
    def input_schema(self) -> Any:
        """The document's embedded input schema, or None."""
        return answers.input_schema(self)

    @property
    def declared_modes(self) -> list[str]:
        """The response modes the document declares (RULES SID4); [] without a document."""
        return answers.declared_modes(self)

    @property
    def example_arguments(self) -> answers.ExampleArguments | None:
        """The first example of the input schema, else of the card's skill entry."""
        return answers.example_arguments(self)

    @property
    def consent_need(self) -> ConsentNeed | None:
        """Why an invocation is sent only with the user's yes; None when it may be."""
        return answers.consent_need(self)

    @property
    def odd_one_out(self) -> answers.OddOneOut | None:
        """The interface digest that differs while the other two agree (RULES CP4)."""
        return answers.odd_one_out(self)

    @property
    def digest_rows(self) -> list[DigestRow]:
        """Advertised, returned and computed, each compared with the other two."""
        return answers.digest_rows(self)

    @property
    def schema_digests(self) -> answers.SchemaDigests:
        """Each embedded schema's declared vs computed digest (RULES CP6)."""
        return answers.schema_digests(self)

    # -- trust anchors ------------------------------------------------------------------
    @property
    def card_signatures(self) -> list[SignatureCheck]:
        """Each card signature's verdict (verified, invalid, unverifiable), in card order."""
        return answers.card_signatures(self)

    @property
    def lock(self) -> LockComparison | None:
        """The interface against the contract lock (``--lock``), once step 4 ran."""
        return answers.lock_comparison(self)

    @property
    def negative_test(self) -> bool:
        """True when invalid arguments were sent on purpose (step 7 found them invalid);
        valid arguments are never a negative test."""
        return answers.negative_test(self)

    # -- the task and what it returned ---------------------------------------------------
    @property
    def cancellable(self) -> bool:
        """True when a cancel request makes sense now (a running task, declared cancellable)."""
        return not answers.cancel_refusal(self)

    @property
    def cancel_refusal(self) -> str:
        """Why a cancel request would do nothing now ("" when it makes sense)."""
        return answers.cancel_refusal(self)

    @property
    def invocation_failure(self) -> verdicts.InvocationFailure | None:
        """The failure once the invocation was sent (steps 8-11): the task's own verdict."""
        return verdicts.invocation_failure(self)

    @property
    def task_error(self) -> TaskError | None:
        """The error object the agent reported (step 8 REJECTED or step 9 FAILED)."""
        return answers.task_error(self)

    @property
    def result_verdict(self) -> answers.ArtifactVerdict | None:
        """The result artifact's own verdict (None until step 10 ran)."""
        return answers.result_verdict(self)

    @property
    def result_value(self) -> Any:
        """The result artifact's value: its one data part (None without a result or with
        several data parts)."""
        return answers.result_value(self)

    @property
    def record_verdicts(self) -> list[RecordResult]:
        """Each supporting record with its own verdict (empty until step 10 ran)."""
        return list(self.records)

    @property
    def record_refs(self) -> list[str]:
        """The artifact ids the result's ``supporting_record_refs`` names (RULES INV7)."""
        return answers.record_refs(self)


@dataclass(frozen=True)
class Invocation:
    """One invocation of a session: its place in the sequence and the run as it ended.

    ``run`` answers everything about it (``outcome``, ``at_fault``, ``arguments``,
    ``exchanges``): every surface reads an invocation's verdict from there.
    """

    number: int
    """1-based, in the order the invocations were sent."""
    total: int
    """How many invocations the session holds."""
    run: Run

    @property
    def label(self) -> str:
        """ "invocation 2 of 3"."""
        return f"invocation {self.number} of {self.total}"


def frozen_copy(run: Run) -> Run:
    """A copy of ``run`` that later steps leave as it is: a past invocation, or what a
    saving thread reads while the engine moves on (steps are replaced, never edited, once
    they ended)."""
    return replace(
        run,
        steps=list(run.steps),
        exchanges=list(run.exchanges),
        records=list(run.records),
        warnings=list(run.warnings),
        digests=replace(run.digests),
        past_invocations=list(run.past_invocations),
        stream_steps=list(run.stream_steps),
        stream_events=list(run.stream_events),
        # The receiver may still append while a saving thread reads the copy.
        push=None
        if run.push is None
        else replace(
            run.push, deliveries=list(run.push.deliveries), refused=list(run.push.refused)
        ),
    )
