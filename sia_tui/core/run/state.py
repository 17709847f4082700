"""What a run of the procedure is made of: its eleven steps, its target, what it fetched.

``RunState`` is the data a run records; ``Run`` (``read_model.py``) adds the answers every
surface reads. The answers are read-only views over ``RunState`` (``verdicts.RunVerdict``,
``answers.RunAnswers``), so they sit below ``Run`` and need nothing of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, TypeVar

from sia_tui.core.a2a.views import AgentCard, Interface
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding
from sia_tui.core.redaction.issued import IssuedSecrets
from sia_tui.core.redaction.userinfo import strip_credentials
from sia_tui.core.run.evidence import Blame, FailureCategory, NextAction, StepStatus

# A run without anchors, push, a plain message or a question never loads these
# (session/dataclass_json resolves them when a session holds one).
if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import Artifact, StreamEvent, Task
    from sia_tui.core.run.later_evidence import StepEvidence
    from sia_tui.core.run.plain import PlainMessage
    from sia_tui.core.run.push_log import PushLog
    from sia_tui.core.run.turns import Turn
    from sia_tui.core.trust.records import TrustAnchors

E = TypeVar("E")


class Step(IntEnum):
    """The eleven steps of the client procedure, by number (RULES CP1-CP11)."""

    CARD = 1
    SKILL = 2
    DESCRIBE = 3
    DIGESTS = 4
    DOCUMENT = 5
    SCHEMAS = 6
    ARGUMENTS = 7
    DELEGATION = 8
    RECEPTION = 9
    OUTPUT = 10
    PRESENTATION = 11


#: Step number -> (title, RULES id). Titles follow the draft's eleven steps (RULES CP1-CP11).
STEP_TITLES: dict[int, tuple[str, str]] = {
    Step.CARD: ("Retrieve the Agent Card", "CP1"),
    Step.SKILL: ("Select the advertised skill", "CP2"),
    Step.DESCRIBE: ("Call describe_skill", "CP3"),
    Step.DIGESTS: ("Check the interface digest three ways", "CP4"),
    Step.DOCUMENT: ("Validate the Skill Interface Document", "CP5"),
    Step.SCHEMAS: ("Verify every embedded schema digest", "CP6"),
    Step.ARGUMENTS: ("Validate the input arguments", "CP7"),
    Step.DELEGATION: ("Delegate the task", "CP8"),
    Step.RECEPTION: ("Receive status, output and records", "CP9"),
    Step.OUTPUT: ("Validate the output and records", "CP10"),
    Step.PRESENTATION: ("Preserve and display the results", "CP11"),
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
    origin: DetectedBy | None = None
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
        title, rule = STEP_TITLES[Step(step)]
        return cls(step=int(step), title=title, rule=rule)


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
    #: What the user trusts and requires (keys, a required signature, a contract lock);
    #: kept with the target so replay checks a recorded run against the same anchors.
    anchors: TrustAnchors | None = field(default=None, repr=False)
    #: Push notifications: "loopback" (sia-tui's receiver on 127.0.0.1), an external
    #: receiver's URL (``--push-url``), or None for none (``engine/push.py``).
    push: str | None = None
    #: Use a mode the card's capabilities do not declare (stream without
    #: ``capabilities.streaming``, push without ``pushNotifications``): testing an agent
    #: that under-declares. Otherwise such a mode is refused with the reason.
    ignore_capabilities: bool = False
    #: ``--strict-wire``: a received A2A message that breaks its revision's wire schema
    #: fails the step that received it (docs/WIRE-CHECKS.md); else it is only counted.
    strict_wire: bool = False

    def __repr__(self) -> str:
        # Textual names a worker by its arguments in its log: never with a URL's password.
        return (
            f"Target(location={strip_credentials(self.location)!r}, skill_id={self.skill_id!r}, "
            f"binding={self.binding!r}, mode={self.mode!r})"
        )


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
class RunState:
    """Everything one run of the procedure learned, in order (``Run`` answers from it)."""

    target: Target
    steps: list[StepResult] = field(default_factory=lambda: [StepResult.fresh(n) for n in Step])
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
    #: The user's yes to sending this invocation, for a skill that asks for it
    #: (``Run.answers.consent_need``); step 8 takes it, so one consent sends once.
    consent: bool = False
    mode: str | None = None
    task: Task | None = None
    result: Artifact | None = None
    records: list[RecordResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: The steps reading a stream still open (8 sent SendStreamingMessage, 9 reads the
    #: events after acceptance); its exchange, recorded when it closes, is listed under
    #: each of them. Empty when no stream is open.
    stream_steps: list[int] = field(default_factory=list)
    #: The names of the credentials the user gave (``auth_plan.provided``), never values.
    credentials: tuple[str, ...] = ()
    #: The task's questions (INPUT_REQUIRED, AUTH_REQUIRED) and the replies, in order.
    turns: list[Turn] = field(default_factory=list)
    #: This invocation's push notifications, when the target asks for them.
    push: PushLog | None = None
    #: The W3C trace id every exchange of the run carried in its ``traceparent`` (each
    #: exchange's own span is ``Exchange.span_id``); None when none was sent (``--no-trace``,
    #: a session saved before trace ids). The agent's side searches its logs for it.
    trace_id: str | None = None
    #: A plain A2A message sent instead of steps 7-11 (``sia-tui send``), and its answer;
    #: None for a run of the procedure. An optional session member.
    plain: PlainMessage | None = None
    #: The stream events this invocation received, in order: each invocation keeps its own
    #: (``Run.live_events`` shows them while it runs). Never stored: the stream's bytes are
    #: in its exchange and its states in step 9's status log.
    stream_events: list[StreamEvent] = field(
        default_factory=list, repr=False, compare=False, metadata={"stored": False}
    )
    #: Secrets fetched during the run (the OAuth2 token), shared by the engine's runs: the
    #: session redactor and every screen's masking read them here.
    #: Never stored: a session file holds no token, redacted or not.
    issued: IssuedSecrets = field(
        default_factory=IssuedSecrets, repr=False, compare=False, metadata={"stored": False}
    )

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

    def step(self, which: Step) -> StepResult:
        """The result of step ``which`` (``run.step(Step.DELEGATION)``)."""
        return self.steps[which - 1]

    def evidence(self, kind: type[E]) -> E | None:
        """The typed evidence of class ``kind`` (e.g. ``DigestEvidence``), if that step ran."""
        for step in self.steps:
            if isinstance(step.evidence, kind):
                return step.evidence
        return None
