"""What a run learned: ``RunAnswers`` (``run.answers``), about the interface, the trust
anchors, the task and the artifacts it returned.

``run.answers.input_schema``, ``.consent_need``, ``.lock``, ``.result_value``, ``.wire``...
are computed here from what the run recorded (``RunState``), on each access; nothing
outside this module recomputes them. How the run went (its outcome, who is at fault) is
``run.verdict`` (``verdicts.py``), which reads these answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.auth.plan import AuthPlan, plan_for
from sia_tui.core.a2a.views import AgentCard
from sia_tui.core.consent import ConsentNeed
from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.errors import JsonInputError, SiaError
from sia_tui.core.interface.threeway import (
    DigestRow,
    compare_rows,
    odd_one_out_statement,
)
from sia_tui.core.interface.threeway import odd_one_out as _odd_source
from sia_tui.core.jsonkit.pointer import display_pointer, resolve
from sia_tui.core.jsonkit.strictjson import loads
from sia_tui.core.needs import Need, word
from sia_tui.core.run.evidence import CardEvidence, StepStatus
from sia_tui.core.run.state import RecordResult, RunState, Step
from sia_tui.core.task_state import TERMINAL_STATES

# The document checks and the values some answers return load with the first answer that
# needs them: a run that has only read the card (`sia-tui open URL`) needs neither.
if TYPE_CHECKING:
    from sia_tui.core.a2a.error_data import A2AErrorData
    from sia_tui.core.interface.document import SchemaRefCheck
    from sia_tui.core.run.answer_types import (
        ArtifactVerdict,
        ExampleArguments,
        OddOneOut,
        SchemaDigests,
        UncheckedArtifacts,
    )
    from sia_tui.core.run.later_evidence import SchemaDigest, TaskError
    from sia_tui.core.trust.records import LockComparison, SignatureCheck
    from sia_tui.core.wire import WireReport

#: Output member that carries artifactId references to records (WIRE.md, Appendix B).
REFS_MEMBER = "supporting_record_refs"


class RunAnswers:
    """What a run learned (``run.answers``): read-only, computed from the run's state on
    each access, so it always says what the run says now."""

    __slots__ = ("_run",)

    def __init__(self, run: RunState) -> None:
        self._run = run

    # -- the interface --------------------------------------------------------------------
    @property
    def auth_plan(self) -> AuthPlan | None:
        """What the skill (or, before one is chosen, the card) requires (the card's security
        requirements) and what is sent."""
        run = self._run
        if run.card is None:
            return None
        return plan_for(run.card, run.skill_id or run.target.skill_id, run.credentials)

    @property
    def advertised_skills(self) -> list[str]:
        """The domain skills the card's schema-interface extension binds (RULES ADV1)."""
        return advertised_skills(self._run.card)

    @property
    def default_skill(self) -> str | None:
        """The skill taken when none was chosen: the extension's one domain skill, else the
        one advertised skill a contract lock pins for this agent (``check --lock``); None
        when the user must choose."""
        run = self._run
        domain = self.advertised_skills
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

    @property
    def validated_document(self) -> dict[str, Any] | None:
        """The document once steps 4-6 passed (RULES CP0: nothing unvalidated is used)."""
        run = self._run
        return run.document if run.step(Step.SCHEMAS).status is StepStatus.PASSED else None

    @property
    def describe_task_id(self) -> str | None:
        """The describe_skill task id (INV12 evidence; None when the document came from the
        cache)."""
        from sia_tui.core.run.later_evidence import DescribeEvidence

        describe = self._run.evidence(DescribeEvidence)
        return describe.task_id if describe is not None else None

    @property
    def input_schema(self) -> Any:
        """The document's embedded input schema, or None."""
        document = self._run.document
        if not isinstance(document, dict):
            return None
        from sia_tui.core.interface.document import embedded_schema

        return embedded_schema(document.get("input_schema"))

    @property
    def declared_modes(self) -> list[str]:
        """The response modes the document declares (RULES SID4); [] without a document or
        when it declares none."""
        document = self._run.document if isinstance(self._run.document, dict) else {}
        interaction = document.get("interaction")
        modes = interaction.get("response_modes") if isinstance(interaction, dict) else None
        return [m for m in modes if isinstance(m, str)] if isinstance(modes, list) else []

    @property
    def example_arguments(self) -> ExampleArguments | None:
        """The first example that validates against the input schema: the input schema's
        own examples first, then the JSON examples of the card's skill. When none validates,
        the first one, with ``problem`` saying why it fails (an editor must not offer it as
        valid)."""
        from sia_tui.core.schemas.examples import first_error
        from sia_tui.core.schemas.validation import compile_schema

        schema = self.input_schema
        candidates = list(islice(_example_candidates(self._run, schema), _MAX_EXAMPLES_TRIED))
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

    @property
    def consent_need(self) -> ConsentNeed | None:
        """Why an invocation is sent only with the user's yes; None when it may be.

        The document's authority describes what the skill may do; it never authorizes it
        (RULES SID5). A skill that may act (``execute``), or whose operation approval may
        apply to, is sent nothing until the user says yes for that invocation: step 8 waits
        (``run.verdict.waiting_for_consent``), the TUI asks, and the prober runs no valid
        invocation unless allowed.
        """
        document = self._run.document
        authority = document.get("authority") if isinstance(document, dict) else None
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

    @property
    def odd_one_out(self) -> OddOneOut | None:
        """The interface digest that differs while the other two agree (RULES CP4)."""
        d = self._run.digests
        source = _odd_source(d.advertised, d.returned, d.computed)
        if not source:
            return None
        from sia_tui.core.run.answer_types import OddOneOut

        return OddOneOut(source, odd_one_out_statement(source))

    @property
    def digest_rows(self) -> list[DigestRow]:
        """Advertised, returned and computed, each compared with the other two (RULES CP4)."""
        d = self._run.digests
        return compare_rows(d.advertised, d.returned, d.computed)

    @property
    def schema_digests(self) -> SchemaDigests:
        """Each embedded schema's declared vs computed digest (RULES CP6): step 6's checks,
        or (when step 6 did not run) the core's check of the document."""
        from sia_tui.core.run.answer_types import SchemaDigests
        from sia_tui.core.run.later_evidence import SchemaEvidence

        evidence = self._run.evidence(SchemaEvidence)
        if evidence is not None:
            return SchemaDigests(list(evidence.schemas), True)
        from sia_tui.core.interface.document import verify_embedded_schemas

        return SchemaDigests(as_schema_digests(verify_embedded_schemas(self._run.document)), False)

    @property
    def a2a_error(self) -> A2AErrorData | None:
        """The A2A error the agent answered where the run stopped, as data (every binding):
        the failed step's last exchange that carries one, or a plain message's
        (``sia-tui send``); None otherwise."""
        from sia_tui.core.a2a.error_data import a2a_error_of  # bodies parsed only when asked

        run = self._run
        failed = run.failed_step
        seqs: list[int] = list(failed.exchanges) if failed is not None else []
        if not seqs and run.plain is not None and run.plain.error is not None:
            seqs = list(run.plain.exchanges)
        wanted = set(seqs)
        for exchange in reversed(run.exchanges):
            if exchange.seq in wanted and (found := a2a_error_of(exchange)) is not None:
                return found
        return None

    @property
    def wire(self) -> WireReport:
        """The A2A wire check of every exchange this invocation recorded, and of each push
        delivery its own receiver accepted: every surface reads it (docs/WIRE-CHECKS.md); its
        errors change no verdict unless the target is ``strict_wire``."""
        from sia_tui.core.wire import wire_report

        run = self._run
        deliveries = run.push.deliveries if run.push is not None else ()
        return wire_report(run.exchanges, deliveries)

    # -- trust anchors (docs/TRUST.md) ----------------------------------------------------
    @property
    def card_signatures(self) -> list[SignatureCheck]:
        """Each card signature's verdict (verified, invalid, unverifiable), in card order
        ([] unsigned or not read)."""
        card = self._run.evidence(CardEvidence)
        return list(card.signatures) if card is not None else []

    @property
    def lock(self) -> LockComparison | None:
        """The interface against the contract lock (``--lock``), once step 4 ran (None: no
        lock, or step 4 did not run)."""
        from sia_tui.core.run.later_evidence import DigestEvidence

        digests = self._run.evidence(DigestEvidence)
        return digests.lock if digests is not None else None

    # -- the task and what it returned ----------------------------------------------------
    @property
    def cancel_refusal(self) -> str:
        """Why a cancel request would do nothing now ("" when it makes sense)."""
        run = self._run
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

    @property
    def cancellable(self) -> bool:
        """True when a cancel request makes sense now (a running task, declared cancellable)."""
        return not self.cancel_refusal

    @property
    def task_error(self) -> TaskError | None:
        """The error object the agent reported: step 9's (FAILED) if any, else step 8's
        (REJECTED)."""
        from sia_tui.core.run.later_evidence import DelegationEvidence, ReceptionEvidence

        reception = self._run.evidence(ReceptionEvidence)
        if reception is not None and reception.error is not None:
            return reception.error
        delegation = self._run.evidence(DelegationEvidence)
        return delegation.error if delegation is not None else None

    @property
    def result_verdict(self) -> ArtifactVerdict | None:
        """The result artifact's own verdict from step 10 (None until it ran); records are
        judged separately."""
        from sia_tui.core.run.later_evidence import OutputEvidence

        output = self._run.evidence(OutputEvidence)
        if output is None:
            return None
        from sia_tui.core.run.answer_types import ArtifactVerdict

        return ArtifactVerdict(self._run.result, list(output.result_findings))

    @property
    def result_value(self) -> Any:
        """The result artifact's value: its one data part (None without a result, or with
        several data parts: step 10 fails such a result, RULES INV5)."""
        result = self._run.result
        data = result.data_parts() if result is not None else []
        return data[0] if len(data) == 1 else None

    @property
    def record_verdicts(self) -> list[RecordResult]:
        """Each supporting record with its own verdict (empty until step 10 ran)."""
        return list(self._run.records)

    @property
    def unchecked_artifacts(self) -> UncheckedArtifacts | None:
        """The artifacts the task sent that step 10 did not check, and why; None when there
        are none (or step 10 judged every one: ``record_verdicts``).

        While the invocation is in flight, those its stream sent so far; once it ended
        before step 10 (cancelled, failed, stopped by the deadline), those the task kept,
        which a saved session keeps too. A record streamed before a cancel stays shown and
        saved as received and unchecked, never as a valid record (RULES CP10, CP11).
        """
        run = self._run
        output = run.step(Step.OUTPUT).status
        if output in (StepStatus.PASSED, StepStatus.FAILED):
            return None
        reception = run.step(Step.RECEPTION).status
        # Step 9 has not concluded (the task runs, or waits for a reply), or step 10 is next.
        in_flight = reception in _NOT_CONCLUDED or (
            reception is StepStatus.PASSED and output in _NOT_CONCLUDED
        )
        streamed = [event.artifact for event in run.stream_events if event.artifact is not None]
        artifacts = run.task.artifacts if run.task is not None else ()
        if not (in_flight and streamed) and not artifacts:
            return None
        from sia_tui.core.run.answer_types import UncheckedArtifacts  # built when there are some

        if in_flight and streamed:
            return UncheckedArtifacts(tuple(streamed), STREAMED_UNCHECKED, True)
        return UncheckedArtifacts(tuple(artifacts), _why_unchecked(run, in_flight), in_flight)

    @property
    def record_refs(self) -> list[str]:
        """The artifact ids the result's ``supporting_record_refs`` names (RULES INV7)."""
        value = self.result_value
        refs = value.get(REFS_MEMBER) if isinstance(value, dict) else None
        return [str(r) for r in refs] if isinstance(refs, list) else []


_NOT_CONCLUDED = (StepStatus.NOT_RUN, StepStatus.RUNNING)

#: Why artifacts streamed so far have no verdict yet.
STREAMED_UNCHECKED = "streaming: validated when the task ends"


def _why_unchecked(run: RunState, in_flight: bool) -> str:
    """Why the task's artifacts were not checked: where the invocation stopped."""
    if in_flight:
        return "received so far: validated when the task ends"
    if run.step(Step.RECEPTION).status is StepStatus.CANCELLED:
        return "received before the task was cancelled; not checked: step 10 did not run"
    failed = run.failed_step
    if failed is not None:
        return f"received before step {failed.step} failed; not checked: step 10 did not run"
    return "not checked: step 10 did not run"


#: Examples tried in turn for a valid one (an agent's list may be long).
_MAX_EXAMPLES_TRIED = 16


def _example_candidates(run: RunState, schema: Any) -> Iterator[ExampleArguments]:
    from sia_tui.core.run.answer_types import ExampleArguments

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


def advertised_skills(card: AgentCard | None) -> list[str]:
    """Skill ids the card's schema-interface extension binds, other than describe_skill."""
    ad = card.schema_interface if card is not None else None
    return [b.skill_id for b in ad.bindings if b.skill_id != DESCRIBE_SKILL] if ad else []


def embedded_schema_at(document: Any, pointer: str) -> Any:
    """The inline schema of the Schema Reference at ``pointer`` in ``document``, or None."""
    from sia_tui.core.interface.document import embedded_schema

    try:
        return embedded_schema(resolve(document, pointer))
    except (KeyError, ValueError):
        return None


def as_schema_digests(checks: list[SchemaRefCheck]) -> list[SchemaDigest]:
    """CP6 checks as the typed evidence rows."""
    from sia_tui.core.run.later_evidence import SchemaDigest

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


def consent_sentence(need: ConsentNeed, what: str) -> str:
    """Why ``what`` (the invocation, the message) was not sent, and how to consent: the
    execute gate's one sentence, for step 8 and for a plain message (``sia-tui send``)."""
    return (
        f"{what} was not sent, because {need.reason}: such a skill is invoked only "
        f"with your consent to each invocation ({word(Need.CONSENT)})"
    )


#: Why no CancelTask is sent for a skill whose document does not declare it cancellable.
NOT_CANCELLABLE = "This skill is not cancellable: its document does not declare it."


def declares_cancellable(document: object) -> bool:
    """True when the document declares ``interaction.cancellable: true`` (RULES SID4)."""
    interaction = document.get("interaction") if isinstance(document, dict) else None
    return isinstance(interaction, dict) and interaction.get("cancellable") is True
