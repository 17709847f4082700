"""What a ``Run`` says about the interface, the task and the artifacts it returned.

``Run``'s properties call these functions (with ``verdicts.py`` for the outcome and who is
at fault); nothing outside the engine recomputes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.auth.plan import AuthPlan, plan_for
from sia_tui.core.a2a.views import AgentCard, Artifact
from sia_tui.core.consent import ConsentNeed
from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.interface.document import SchemaRefCheck, embedded_schema, verify_embedded_schemas
from sia_tui.core.interface.threeway import (
    DigestRow,
    DigestSource,
    compare_rows,
    odd_one_out_statement,
)
from sia_tui.core.interface.threeway import odd_one_out as _odd_source
from sia_tui.core.jsonkit.pointer import display_pointer, resolve
from sia_tui.core.jsonkit.strictjson import loads
from sia_tui.core.needs import Need, word
from sia_tui.core.run.evidence import (
    ArgumentsEvidence,
    CardEvidence,
    DelegationEvidence,
    DescribeEvidence,
    DigestEvidence,
    OutputEvidence,
    ReceptionEvidence,
    SchemaDigest,
    SchemaEvidence,
    StepStatus,
    TaskError,
)
from sia_tui.core.run.state import RunState, Step
from sia_tui.core.task_state import TERMINAL_STATES
from sia_tui.core.trust.records import LockComparison, SignatureCheck

if TYPE_CHECKING:
    from sia_tui.core.a2a.error_data import A2AErrorData

#: Output member that carries artifactId references to records (WIRE.md, Appendix B).
REFS_MEMBER = "supporting_record_refs"


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
    #: Where and why it fails the input schema ("at /threshold: ..."); None when it validates.
    problem: str | None = None
    #: The examples tried before it that fail the input schema ("<source> fails it at ...").
    passed_over: tuple[str, ...] = ()


@dataclass(frozen=True)
class SchemaDigests:
    """Every embedded schema's digest check; ``from_step`` is False when step 6 did not
    run and the core checked the document on request (e.g. after a step-4 failure)."""

    schemas: list[SchemaDigest]
    from_step: bool


# -- the interface ------------------------------------------------------------------------
def validated_document(run: RunState) -> dict[str, Any] | None:
    """The document, only once step 6 passed."""
    return run.document if run.step(Step.SCHEMAS).status is StepStatus.PASSED else None


def describe_task_id(run: RunState) -> str | None:
    """The describe_skill task id (INV12 evidence)."""
    describe = run.evidence(DescribeEvidence)
    return describe.task_id if describe is not None else None


def input_schema(run: RunState) -> Any:
    """The embedded input schema of the document, or None."""
    document = run.document
    return embedded_schema(document.get("input_schema")) if isinstance(document, dict) else None


def declared_modes(run: RunState) -> list[str]:
    """The response modes the document declares (RULES SID4); [] when it declares none."""
    document = run.document if isinstance(run.document, dict) else {}
    interaction = document.get("interaction")
    modes = interaction.get("response_modes") if isinstance(interaction, dict) else None
    return [m for m in modes if isinstance(m, str)] if isinstance(modes, list) else []


def example_arguments(run: RunState) -> ExampleArguments | None:
    """The first example that validates against the input schema: the input schema's own
    examples first, then the JSON examples of the card's skill. When none validates, the
    first one, with ``problem`` saying why it fails (an editor must not offer it as valid)."""
    from sia_tui.core.schemas.examples import first_error
    from sia_tui.core.schemas.validation import compile_schema

    schema = input_schema(run)
    candidates = list(islice(_example_candidates(run, schema), _MAX_EXAMPLES_TRIED))
    if not candidates:
        return None
    try:
        compiled = compile_schema(schema)
    except SiaError:
        return candidates[0]  # no usable schema: step 6 says why; nothing to compare with
    failing: list[str] = []
    for candidate in candidates:
        error = first_error(compiled, candidate.value)
        if error is None:
            return replace(candidate, passed_over=tuple(failing))
        where = f"at {display_pointer(error.pointer)}: {error.message}"
        if not failing:
            first_problem = where
        failing.append(f"{candidate.source} fails it {where}")
    return replace(candidates[0], problem=first_problem)


#: Examples tried in turn for a valid one (an agent's list may be long).
_MAX_EXAMPLES_TRIED = 16


def _example_candidates(run: RunState, schema: Any) -> Iterator[ExampleArguments]:
    examples = schema.get("examples") if isinstance(schema, dict) else None
    for index, value in enumerate(examples if isinstance(examples, list) else ()):
        yield ExampleArguments(value, f"the input schema's examples[{index}]")
    skill = run.card.skill(run.skill_id) if run.card and run.skill_id else None
    for index, text in enumerate(skill.examples if skill else ()):
        try:
            value = loads(text, source=f"card skill example {index}")
        except JsonInputError:
            continue  # card examples are often prose prompts, not arguments
        yield ExampleArguments(value, f"the card skill's examples[{index}]")


def auth_plan(run: RunState) -> AuthPlan | None:
    """What the run's skill (or, before one is chosen, the card) requires, and what is sent."""
    if run.card is None:
        return None
    return plan_for(run.card, run.skill_id or run.target.skill_id, run.credentials)


def default_skill(run: RunState) -> str | None:
    """The skill a run takes when none was chosen: the extension's one domain skill, else
    the one advertised skill a contract lock pins for this agent (``check --lock``)."""
    domain = advertised_skills(run.card)
    if len(domain) == 1:
        return domain[0]
    anchors = run.target.anchors
    if anchors is None or anchors.lock is None or run.card is None:
        return None
    from sia_tui.core.redaction.userinfo import target_identity
    from sia_tui.core.trust.lock import pinned_agent

    card = target_identity(run.card_url or run.target.location)
    entry = pinned_agent(anchors.lock, agent=run.card.name, card=card)
    pinned = [s.skill_id for s in entry.skills if s.skill_id in domain] if entry else []
    return pinned[0] if len(pinned) == 1 else None


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


def odd_one_out(run: RunState) -> OddOneOut | None:
    """The interface digest that differs while the other two agree."""
    d = run.digests
    source = _odd_source(d.advertised, d.returned, d.computed)
    return OddOneOut(source, odd_one_out_statement(source)) if source else None


def digest_rows(run: RunState) -> list[DigestRow]:
    """The three-way table's rows (RULES CP4)."""
    d = run.digests
    return compare_rows(d.advertised, d.returned, d.computed)


def schema_digests(run: RunState) -> SchemaDigests:
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


def a2a_error(run: RunState) -> A2AErrorData | None:
    """The A2A error the agent answered where the run stopped: the failed step's last
    exchange that carries one, or a plain message's (``sia-tui send``); None otherwise."""
    from sia_tui.core.a2a.error_data import a2a_error_of  # bodies parsed only when asked

    failed = run.failed_step
    seqs: list[int] = list(failed.exchanges) if failed is not None else []
    if not seqs and run.plain is not None and run.plain.error is not None:
        seqs = list(run.plain.exchanges)
    wanted = set(seqs)
    for exchange in reversed(run.exchanges):
        if exchange.seq in wanted and (found := a2a_error_of(exchange)) is not None:
            return found
    return None


def consent_need(run: RunState) -> ConsentNeed | None:
    """Whether an invocation may be sent only with the user's consent (None: it may).

    The document's authority describes what the skill may do; it never authorizes it
    (RULES SID5). A skill that may act (``execute``), or whose operation approval may apply
    to, is sent nothing until the user says yes for that invocation: step 8 waits
    (``waiting_for_consent``), the TUI asks, and the prober runs no valid invocation unless
    allowed.
    """
    authority = run.document.get("authority") if isinstance(run.document, dict) else None
    if not isinstance(authority, dict):
        return None
    mode = authority.get("default_mode")
    approval = authority.get("approval_may_be_required") is True
    executes = mode == "execute"
    if not executes and not approval:
        return None
    clauses = ["execute authority"] if executes else []
    if approval:
        clauses.append("that approval may be required")
    reason = "the document declares " + " and ".join(clauses)
    return ConsentNeed(str(mode), approval, reason)


def waiting_for_consent(run: RunState) -> bool:
    """Step 8 is next, the document asks for consent, and none was given for this send."""
    return (
        run.next_step == Step.DELEGATION
        and not run.consent
        and not any(s.status is StepStatus.RUNNING for s in run.steps)
        and consent_need(run) is not None
    )


def consent_refusal(run: RunState) -> str:
    """Why step 8 did not send the invocation, and how to consent; "" when it is not held."""
    need = consent_need(run) if waiting_for_consent(run) else None
    return "" if need is None else consent_sentence(need, "the invocation")


def consent_sentence(need: ConsentNeed, what: str) -> str:
    """Why ``what`` (the invocation, the message) was not sent, and how to consent: the
    execute gate's one sentence, for step 8 and for a plain message (``sia-tui send``)."""
    return (
        f"{what} was not sent, because {need.reason}: such a skill is invoked only "
        f"with your consent to each invocation ({word(Need.CONSENT)})"
    )


# -- the task and what it returned --------------------------------------------------------
#: Why no CancelTask is sent for a skill whose document does not declare it cancellable.
NOT_CANCELLABLE = "This skill is not cancellable: its document does not declare it."


def declares_cancellable(document: object) -> bool:
    """True when the document declares ``interaction.cancellable: true`` (RULES SID4)."""
    interaction = document.get("interaction") if isinstance(document, dict) else None
    return isinstance(interaction, dict) and interaction.get("cancellable") is True


def negative_test(run: RunState) -> bool:
    """True when step 7 found the arguments invalid and they were sent anyway on purpose:
    arguments that validate are never a negative test, whatever the caller asked."""
    checked = run.evidence(ArgumentsEvidence)
    return checked is not None and checked.negative_test


def cancel_refusal(run: RunState) -> str:
    """Why a cancel request would do nothing now; "" when it makes sense."""
    if run.task is None or not run.task.id:
        return "No task to cancel: invoke the skill first."
    if run.task.state in TERMINAL_STATES:
        # Not ``terminal``: a task waiting for input has not ended, and A2A lets its
        # caller cancel it.
        return f"The task is not running: it ended {run.task.state}."
    if not declares_cancellable(run.document):
        return NOT_CANCELLABLE
    if run.interface is None:
        return "No A2A interface to send the cancel request to."
    return ""


def task_error(run: RunState) -> TaskError | None:
    """The agent's error object: step 9's (FAILED) if any, else step 8's (REJECTED)."""
    reception = run.evidence(ReceptionEvidence)
    if reception is not None and reception.error is not None:
        return reception.error
    delegation = run.evidence(DelegationEvidence)
    return delegation.error if delegation is not None else None


def result_verdict(run: RunState) -> ArtifactVerdict | None:
    """The result's own verdict from step 10; records are judged separately."""
    output = run.evidence(OutputEvidence)
    if output is None:
        return None
    return ArtifactVerdict(run.result, list(output.result_findings))


def result_value(run: RunState) -> Any:
    """The value of the result artifact's one data part; None without one (or with several:
    step 10 fails such a result, RULES INV5)."""
    data = run.result.data_parts() if run.result is not None else []
    return data[0] if len(data) == 1 else None


def record_refs(run: RunState) -> list[str]:
    """Every artifact id the result's ``supporting_record_refs`` names."""
    value = result_value(run)
    refs = value.get(REFS_MEMBER) if isinstance(value, dict) else None
    return [str(r) for r in refs] if isinstance(refs, list) else []


# -- trust anchors (docs/TRUST.md) -------------------------------------------------------------
def card_signatures(run: RunState) -> list[SignatureCheck]:
    """The verdict on each of the card's signatures, in order ([] unsigned or not read)."""
    card = run.evidence(CardEvidence)
    return list(card.signatures) if card is not None else []


def lock_comparison(run: RunState) -> LockComparison | None:
    """The interface against the contract lock (None: no lock, or step 4 did not run)."""
    digests = run.evidence(DigestEvidence)
    return digests.lock if digests is not None else None
