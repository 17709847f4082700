"""The answers a ``Run`` gives: one implementation of every verdict the surfaces show.

``Run``'s properties call these functions; nothing outside the engine recomputes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.model import AgentCard, Artifact
from sia_tui.core.codes import ErrorCode, describe_code
from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.document import SchemaRefCheck, embedded_schema, verify_embedded_schemas
from sia_tui.core.engine.evidence import (
    Blame,
    DelegationEvidence,
    DescribeEvidence,
    FailureCategory,
    OutputEvidence,
    Party,
    ReceptionEvidence,
    SchemaDigest,
    SchemaEvidence,
    StepStatus,
    TaskError,
)
from sia_tui.core.errors import JsonInputError
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.pointer import resolve
from sia_tui.core.strictjson import loads
from sia_tui.core.threeway import (
    DigestRow,
    DigestSource,
    compare_rows,
    odd_one_out_statement,
)
from sia_tui.core.threeway import odd_one_out as _odd_source

if TYPE_CHECKING:
    from sia_tui.core.engine.model import Run, StepResult

#: The first step that needs arguments: without them the run pauses before it.
FIRST_INVOCATION_STEP = 7
#: Output member that carries artifactId references to records (WIRE.md, Appendix B).
REFS_MEMBER = "supporting_record_refs"
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


@dataclass(frozen=True)
class OddOneOut:
    """The interface digest that differs from the other two, said in one sentence."""

    source: DigestSource
    statement: str


@dataclass(frozen=True)
class ArtifactVerdict:
    """The result artifact (None when the task returned none) with its own findings."""

    artifact: Artifact | None
    findings: list[Finding]

    @property
    def valid(self) -> bool:
        """True when the artifact exists and no error finding is about it."""
        return self.artifact is not None and not any(
            f.severity is Severity.ERROR for f in self.findings
        )


@dataclass(frozen=True)
class ExampleArguments:
    """Arguments taken from an example, and where the example was found."""

    value: Any
    source: str


@dataclass(frozen=True)
class SchemaDigests:
    """Every embedded schema's digest check; ``from_step`` is False when step 6 did not
    run and the core checked the document on request (e.g. after a step-4 failure)."""

    schemas: list[SchemaDigest]
    from_step: bool


# -- where the run is ---------------------------------------------------------------------
def waiting_for_arguments(run: Run) -> bool:
    """Steps 1-6 passed and step 7 has neither arguments nor an example to take."""
    return (
        run.next_step == FIRST_INVOCATION_STEP
        and run.arguments is None
        and not run.use_example
        and not _running(run)
    )


def finished(run: Run) -> bool:
    """Nothing more can run without new input, and no step is running."""
    if _running(run):
        return False
    return run.next_step is None or waiting_for_arguments(run)


def outcome(run: Run) -> RunOutcome:
    """The run's verdict; a step that did not run is never counted as passed."""
    if run.failed_step is not None:
        return RunOutcome.FAILED
    if any(s.status is StepStatus.CANCELLED for s in run.steps):
        return RunOutcome.CANCELLED
    delegation = run.evidence(DelegationEvidence)
    if delegation is not None and delegation.expected_rejection:
        return RunOutcome.NEGATIVE_TEST_PASSED
    if all(s.status is StepStatus.PASSED for s in run.steps):
        return RunOutcome.PASSED
    return RunOutcome.INCOMPLETE


def summary(run: Run) -> str:
    """Why the run has its outcome, in one sentence every surface prints as is."""
    verdict = outcome(run)
    if verdict is RunOutcome.FAILED:
        failed = run.failed_step
        assert failed is not None
        code = f" ({failed.code}, {failed.origin or 'local'})" if failed.code else ""
        blame = at_fault(run)
        why = blame.statement if blame else failed.message
        text = f"at step {failed.step}, {failed.title}{code}: {why}"
    elif verdict is RunOutcome.PASSED:
        text = "all eleven steps passed"
    elif verdict is RunOutcome.NEGATIVE_TEST_PASSED:
        text = (
            "the agent rejected the invalid arguments with input_invalid, as the deliberate "
            "negative test expects (RULES INV3)"
        )
    elif verdict is RunOutcome.CANCELLED:
        text = "the task was cancelled as asked; its output was not checked"
    else:
        text = _not_run_reason(run)
    if run.from_cache:
        text += "; the document came from the cache (describe_skill was not called, RULES CP12)"
    return text


def headline(run: Run) -> str:
    """The outcome and why: "FAILED at step 4, ...", "INCOMPLETE: steps 7-11 did not run..."."""
    label = outcome(run).label
    text = summary(run)
    return f"{label} {text}" if text.startswith("at step") else f"{label}: {text}"


def _not_run_reason(run: Run) -> str:
    waiting = [s.step for s in run.steps if s.status is StepStatus.NOT_RUN]
    if _running(run):
        return "a step is still running"
    span = f"steps {waiting[0]}-{waiting[-1]}" if len(waiting) > 1 else f"step {waiting[0]}"
    if waiting_for_arguments(run):
        return f"{span} did not run: no arguments were given"
    return f"{span} did not run"


def _running(run: Run) -> bool:
    return any(s.status is StepStatus.RUNNING for s in run.steps)


# -- who is at fault ----------------------------------------------------------------------
def at_fault(run: Run) -> Blame | None:
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
        who = "the agent" if step.origin == "remote" else "sia-tui"
        return Blame(
            party=Party.CALLER, statement=f"{who} found the request invalid: {step.message}"
        )
    info = describe_code(step.code) if step.code else None
    return Blame(party=Party.AGENT, statement=info.meaning if info else step.message)


def fault_exchanges(run: Run) -> list[Exchange]:
    """The recorded exchanges whose bytes show the failure, in order (a vendor's evidence).

    A step that sends nothing points at the exchange it judged: the card for a card
    fault (step 2, or step 4 when the advertised digest is the odd one out), the
    describe_skill answer for the document (steps 4-6), the invocation for its output (10).
    """
    failed = run.failed_step
    if failed is None:
        return []
    by_step = {s.step: s.exchanges for s in run.steps}
    numbers: tuple[int, ...] = (failed.step,)
    if failed.step == 2:
        numbers = (1,)
    elif failed.step == 4:
        odd = _odd_source(run.digests.advertised, run.digests.returned, run.digests.computed)
        numbers = (1, 3) if odd is None else (1,) if odd is DigestSource.ADVERTISED else (3,)
    elif failed.step in (5, 6):
        numbers = (3,)
    elif failed.step == 10:
        numbers = (8, 9)
    seqs = {seq for n in numbers for seq in by_step.get(n, [])}
    return [ex for ex in run.exchanges if ex.seq in seqs]


# -- the interface ------------------------------------------------------------------------
def validated_document(run: Run) -> dict[str, Any] | None:
    """The document, only once step 6 passed."""
    return run.document if run.steps[5].status is StepStatus.PASSED else None


def describe_task_id(run: Run) -> str | None:
    """The describe_skill task id (INV12 evidence)."""
    describe = run.evidence(DescribeEvidence)
    return describe.task_id if describe is not None else None


def input_schema(run: Run) -> Any:
    """The embedded input schema of the document, or None."""
    document = run.document
    return embedded_schema(document.get("input_schema")) if isinstance(document, dict) else None


def declared_modes(run: Run) -> list[str]:
    """The response modes the document declares (RULES SID4); [] when it declares none."""
    document = run.document if isinstance(run.document, dict) else {}
    interaction = document.get("interaction")
    modes = interaction.get("response_modes") if isinstance(interaction, dict) else None
    return [m for m in modes if isinstance(m, str)] if isinstance(modes, list) else []


def example_arguments(run: Run) -> ExampleArguments | None:
    """The input schema's first example, else the first JSON example of the card's skill."""
    schema = input_schema(run)
    examples = schema.get("examples") if isinstance(schema, dict) else None
    if isinstance(examples, list) and examples:
        return ExampleArguments(examples[0], "the input schema's examples[0]")
    skill = run.card.skill(run.skill_id) if run.card and run.skill_id else None
    for index, text in enumerate(skill.examples if skill else ()):
        try:
            value = loads(text, source=f"card skill example {index}")
        except JsonInputError:
            continue  # card examples are often prose prompts, not arguments
        return ExampleArguments(value, f"the card skill's examples[{index}]")
    return None


def advertised_skills(card: AgentCard | None) -> list[str]:
    """Skill ids the card's schema-interface extension binds, other than describe_skill."""
    ad = card.schema_interface if card is not None else None
    return [b.skill_id for b in ad.bindings if b.skill_id != DESCRIBE_SKILL] if ad else []


def embedded_schema_at(document: Any, pointer: str) -> Any:
    """The inline schema of the Schema Reference at ``pointer`` in ``document``, or None."""
    try:
        return embedded_schema(resolve(document, pointer))
    except (KeyError, ValueError):
        return None


def odd_one_out(run: Run) -> OddOneOut | None:
    """The interface digest that differs while the other two agree."""
    d = run.digests
    source = _odd_source(d.advertised, d.returned, d.computed)
    return OddOneOut(source, odd_one_out_statement(source)) if source else None


def digest_rows(run: Run) -> list[DigestRow]:
    """The three-way table's rows (RULES CP4)."""
    d = run.digests
    return compare_rows(d.advertised, d.returned, d.computed)


def schema_digests(run: Run) -> SchemaDigests:
    """Step 6's checks, or (when step 6 did not run) the core's check of the document."""
    evidence = run.evidence(SchemaEvidence)
    if evidence is not None:
        return SchemaDigests(list(evidence.schemas), True)
    return SchemaDigests(as_schema_digests(verify_embedded_schemas(run.document)), False)


def as_schema_digests(checks: list[SchemaRefCheck]) -> list[SchemaDigest]:
    """CP6 checks as the typed evidence rows."""
    return [
        SchemaDigest(
            role=c.role,
            pointer=c.pointer,
            declared=c.declared,
            computed=c.computed,
            match=c.match,
            forensics=c.forensics.explanation if c.forensics else None,
        )
        for c in checks
    ]


# -- the task and what it returned --------------------------------------------------------
def cancel_refusal(run: Run) -> str:
    """Why a cancel request would do nothing now; "" when it makes sense."""
    if run.task is None or not run.task.id:
        return "No task to cancel: invoke the skill first."
    if run.task.terminal:
        return f"The task is not running: it ended {run.task.state}."
    document = run.document if isinstance(run.document, dict) else {}
    interaction = document.get("interaction")
    if not (isinstance(interaction, dict) and interaction.get("cancellable") is True):
        return "This skill is not cancellable: its document does not declare it."
    if run.interface is None:
        return "No A2A interface to send the cancel request to."
    return ""


def task_error(run: Run) -> TaskError | None:
    """The agent's error object: step 9's (FAILED) if any, else step 8's (REJECTED)."""
    reception = run.evidence(ReceptionEvidence)
    if reception is not None and reception.error is not None:
        return reception.error
    delegation = run.evidence(DelegationEvidence)
    return delegation.error if delegation is not None else None


def result_verdict(run: Run) -> ArtifactVerdict | None:
    """The result's own verdict from step 10; records are judged separately."""
    output = run.evidence(OutputEvidence)
    if output is None:
        return None
    return ArtifactVerdict(run.result, list(output.result_findings))


def record_refs(run: Run) -> list[str]:
    """Every artifact id the result's ``supporting_record_refs`` names."""
    data = run.result.data_parts() if run.result is not None else []
    value = data[0] if len(data) == 1 else None
    refs = value.get(REFS_MEMBER) if isinstance(value, dict) else None
    return [str(r) for r in refs] if isinstance(refs, list) else []
