"""What a run of the procedure is made of, and the answers it gives every surface.

``Run`` is the read model: the TUI screens, ``check`` (text and ``--json``), the reports,
replay/rerun and compose read its answers (``finished``, ``outcome``, ``at_fault``,
``odd_one_out``, ``result_verdict``...) and compute no verdict of their own. The answers
are implemented in ``verdicts.py`` (the outcome, who is at fault) and ``answers.py`` (the
interface, the task, the artifacts); each step's typed evidence is in ``evidence.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sia_tui.core.a2a.model import AgentCard, Artifact, Interface, Task
from sia_tui.core.codes import ErrorCode, Origin
from sia_tui.core.engine import answers, verdicts
from sia_tui.core.engine.evidence import (
    Blame,
    FailureCategory,
    NextAction,
    StepEvidence,
    TaskError,
)
from sia_tui.core.engine.evidence import StepStatus as StepStatus
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding

if TYPE_CHECKING:
    from sia_tui.core.interface.threeway import DigestRow

E = TypeVar("E")


#: Step number -> (title, RULES id). Titles follow the draft's eleven steps (RULES CP1-CP11).
STEP_TITLES: dict[int, tuple[str, str]] = {
    1: ("Retrieve the Agent Card", "CP1"),
    2: ("Select the advertised skill", "CP2"),
    3: ("Call describe_skill", "CP3"),
    4: ("Check the interface digest three ways", "CP4"),
    5: ("Validate the Skill Interface Document", "CP5"),
    6: ("Verify every embedded schema digest", "CP6"),
    7: ("Validate the input arguments", "CP7"),
    8: ("Delegate the task", "CP8"),
    9: ("Receive status, output and records", "CP9"),
    10: ("Validate the output and records", "CP10"),
    11: ("Preserve and display the results", "CP11"),
}


@dataclass
class StepResult:
    """The outcome of one step, with the evidence a user needs to understand it."""

    step: int
    title: str
    rule: str
    status: StepStatus = StepStatus.NOT_RUN
    #: The draft code on failure (one of the ten), else None.
    code: ErrorCode | None = None
    #: Whether the failure was found here ("local") or reported by the agent ("remote").
    origin: Origin | None = None
    #: One-line outcome for lists and reports.
    message: str = ""
    #: What to do next, one sentence a vendor can act on without sia-tui; set on failure.
    hint: str = ""
    findings: list[Finding] = field(default_factory=list)
    #: Sequence numbers of the exchanges this step made (see Run.exchanges).
    exchanges: list[int] = field(default_factory=list)
    #: What the step found, typed per step (``evidence.py``); None until it ran.
    evidence: StepEvidence | None = None
    #: On failure: a draft code applies, or transport, remote, usage, internal.
    category: FailureCategory | None = None
    #: On failure: who is at fault and why.
    blame: Blame | None = None
    #: Where to look next; each surface names its own key or command for it.
    next_action: NextAction | None = None
    #: On failure: the named error underneath (``SiaError.kind``: ``response_too_large``,
    #: ``timeout``, ``deadline_exceeded``...), so a size limit is told from a timeout.
    error_kind: str | None = None

    @classmethod
    def fresh(cls, step: int) -> StepResult:
        """A not-yet-run result for step ``step``."""
        title, rule = STEP_TITLES[step]
        return cls(step=step, title=title, rule=rule)


@dataclass(frozen=True)
class Target:
    """What the user pointed the tool at, and how to reach it."""

    #: A base URL, a card URL, or a local card file path, as the user typed it.
    location: str
    skill_id: str | None = None
    #: "jsonrpc" / "http-json" to force a binding, else the card's first callable one.
    binding: str | None = None
    #: "sync", "stream" or "poll"; None lets the engine choose from the document.
    mode: str | None = None


@dataclass
class Digests:
    """The interface digest as advertised in the card, returned by describe_skill, computed here."""

    advertised: str | None = None
    returned: str | None = None
    computed: str | None = None


@dataclass
class RecordResult:
    """A supporting-record artifact matched to its kind, with its own verdict (RULES INV6, CP10)."""

    artifact: Artifact
    kind: str | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """True when the record validated against its declared schema."""
        return self.kind is not None and not self.findings


@dataclass
class Run:
    """Everything one run of the procedure learned, in order."""

    target: Target
    steps: list[StepResult] = field(
        default_factory=lambda: [StepResult.fresh(n) for n in range(1, 12)]
    )
    exchanges: list[Exchange] = field(default_factory=list)
    card: AgentCard | None = None
    card_url: str | None = None
    interface: Interface | None = None
    skill_id: str | None = None
    skill_version: str | None = None
    digests: Digests = field(default_factory=Digests)
    #: The validated Skill Interface Document (after step 5 passes).
    document: dict[str, Any] | None = None
    from_cache: bool = False
    #: Arguments sent (or to be sent) at step 8; None means steps 7-11 do not run.
    arguments: Any = None
    #: True when the user chose to send input that failed step 7 (a deliberate negative test).
    send_anyway: bool = False
    #: True when step 7 takes the document's example arguments (``--args example``).
    use_example: bool = False
    #: True once the user asked for the running task to be cancelled.
    cancel_requested: bool = False
    mode: str | None = None
    task: Task | None = None
    result: Artifact | None = None
    records: list[RecordResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        # Short: asyncio formats a finished task's result with repr() when it restores
        # the SIGINT handler, and the full repr of a run holding a 5 MB artifact took
        # 0.5 s and ~90 MB.
        steps = ",".join(step.status.value for step in self.steps)
        return f"Run(target={self.target!r}, steps=[{steps}], exchanges={len(self.exchanges)})"

    # -- where the run is ---------------------------------------------------------------
    @property
    def next_step(self) -> int | None:
        """Number of the first step still NOT_RUN, or None when the run is over."""
        for result in self.steps:
            if result.status is StepStatus.NOT_RUN:
                return result.step
        return None

    @property
    def failed_step(self) -> StepResult | None:
        """The step that failed, if any (CP0: there is at most one)."""
        return next((s for s in self.steps if s.status is StepStatus.FAILED), None)

    @property
    def waiting_for_arguments(self) -> bool:
        """Steps 1-6 are done and steps 7-11 wait for arguments nobody gave."""
        return verdicts.waiting_for_arguments(self)

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
    def fault_exchanges(self) -> list[Exchange]:
        """The recorded exchanges whose bytes show the failure (the card for a card fault)."""
        return verdicts.fault_exchanges(self)

    def evidence(self, kind: type[E]) -> E | None:
        """The typed evidence of class ``kind`` (e.g. ``DigestEvidence``), if that step ran."""
        for step in self.steps:
            if isinstance(step.evidence, kind):
                return step.evidence
        return None

    # -- the interface -------------------------------------------------------------------
    @property
    def advertised_skills(self) -> list[str]:
        """The domain skills the card's schema-interface extension binds (RULES ADV1)."""
        return answers.advertised_skills(self.card)

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
    def consent_need(self) -> answers.ConsentNeed | None:
        """Why valid arguments are sent only with the user's yes; None when they may be."""
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
    def record_verdicts(self) -> list[RecordResult]:
        """Each supporting record with its own verdict (empty until step 10 ran)."""
        return list(self.records)

    @property
    def record_refs(self) -> list[str]:
        """The artifact ids the result's ``supporting_record_refs`` names (RULES INV7)."""
        return answers.record_refs(self)
