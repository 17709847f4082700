"""The typed evidence of each of the eleven steps, and the small types a run's answers use.

Every step stores exactly one of these classes (``kind`` tells them apart in a session
file); surfaces read their members by name, never by position or by string key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from sia_tui.core.codes import ErrorCode
from sia_tui.core.findings import Finding
from sia_tui.core.interface.threeway import DigestSource, odd_one_out

# Only a signed card, a lock or a negative test makes these (session/dataclass_json
# resolves them when a session holds one).
if TYPE_CHECKING:
    from sia_tui.core.run.refusal import Verdict
    from sia_tui.core.trust.records import LockComparison, SignatureCheck


class StepStatus(StrEnum):
    """The state of one step. RUNNING exists only while a step executes."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    NOT_RUN = "not_run"
    RUNNING = "running"
    #: The user asked for the task to be cancelled and the agent did (step 9).
    CANCELLED = "cancelled"


class FailureCategory(StrEnum):
    """What kind of failure a failed step is (WIRE.md: transport failures are not codes)."""

    #: One of the draft's ten codes applies.
    DRAFT = "draft"
    #: No usable answer: refused, timed out, too large, not JSON, not A2A.
    TRANSPORT = "transport"
    #: The agent ended the task without a draft code (or stopped for input).
    REMOTE = "remote"
    #: What the user asked for cannot be done (no skill chosen, undeclared mode, no example).
    USAGE = "usage"
    #: sia-tui itself failed: a bug to report.
    INTERNAL = "internal"
    #: A trust anchor the user gave is not met: no verified card signature although one
    #: is required, or the interface drifted from its contract lock (docs/TRUST.md).
    TRUST = "trust"


class NextAction(StrEnum):
    """Where to look next after a step; each surface names its own key or command for it."""

    SHOW_DIGESTS = "digests"
    SHOW_DOCUMENT = "document"
    EDIT_ARGUMENTS = "arguments"
    SHOW_RESULTS = "results"
    SHOW_EXCHANGE = "exchange"
    CHOOSE_SKILL = "skill"
    RESTART = "restart"
    REPORT = "report"


class Party(StrEnum):
    """Who is at fault when a step fails."""

    #: The agent under test: its card, its documents, its tasks.
    AGENT = "agent"
    #: What was asked of it: the arguments, the credentials, the chosen skill or mode.
    CALLER = "caller"
    #: Nobody answered: the connection was refused or timed out.
    NETWORK = "network"
    #: sia-tui itself (a bug to report).
    TOOL = "sia-tui"
    #: A limit of this client's own policy was reached (a flag raises it); nobody broke a
    #: rule of the draft.
    LIMIT = "limit"


@dataclass(kw_only=True)
class Blame:
    """Who is at fault and why, in one sentence every surface shows as is."""

    party: Party
    statement: str

    @property
    def text(self) -> str:
        """``agent: the agent's digest ...``: the party, a colon, the statement, as every
        surface writes it (the reports, the TUI), so none of them writes it its own way."""
        return f"{self.party.value}: {self.statement}"


@dataclass(kw_only=True)
class CardEvidence:
    """Step 1 (CP1): the card that was read and the endpoint chosen."""

    kind: Literal["card"] = "card"
    card_url: str
    agent: str
    card_dialect: str
    interfaces: list[str] = field(default_factory=list)
    extension: bool = False
    warnings: list[str] = field(default_factory=list)
    selected_interface: str | None = None
    #: One verdict per entry of the card's ``signatures``, in order (A2A 1.0 section 8.4).
    signatures: list[SignatureCheck] = field(default_factory=list)
    #: What the extended card (GetExtendedAgentCard) added, when it was fetched and used.
    extended_card: str | None = None


@dataclass(kw_only=True)
class SkillEvidence:
    """Step 2 (CP2): the advertised binding taken for the selected skill."""

    kind: Literal["skill"] = "skill"
    skill_id: str
    skill_version: str
    interface_digest: str
    advertised_skills: list[str] = field(default_factory=list)
    extension_required: bool = False


@dataclass(kw_only=True)
class DescribeEvidence:
    """Step 3 (CP3): the describe_skill task, or the cache entry used instead (CP12)."""

    kind: Literal["describe"] = "describe"
    from_cache: bool = False
    task_id: str | None = None
    state: str | None = None
    returned_digest: str | None = None
    #: The four values a cached document is bound to (RULES CP12), when it came from the cache.
    cache_key: dict[str, str] | None = None
    #: When the run's deadline passed here: whether CancelTask was sent, and the answer.
    deadline_cancel: str | None = None
    #: Why the user's consent was needed, when it was given for this send (RULES SID5).
    consent: str | None = None


@dataclass(kw_only=True)
class DigestEvidence:
    """Step 4 (CP4): the three interface digests and what explains a wrong one."""

    kind: Literal["digests"] = "digests"
    advertised: str | None = None
    returned: str | None = None
    computed: str | None = None
    #: The forensics verdict for the wrong digest, when one is wrong.
    forensics: str | None = None
    #: Which digest the forensics verdict explains.
    forensics_of: DigestSource | None = None
    #: The interface against the contract lock (``--lock``), when one was given.
    lock: LockComparison | None = None

    @property
    def odd_one_out(self) -> DigestSource | None:
        """The digest that differs while the other two agree."""
        return odd_one_out(self.advertised, self.returned, self.computed)


@dataclass(kw_only=True)
class DocumentEvidence:
    """Step 5 (CP5): what the validated document declares about itself."""

    kind: Literal["document"] = "document"
    interface_version: Any = None
    skill_id: Any = None
    skill_version: Any = None
    authority: Any = None
    interaction: Any = None
    note: str = ""


@dataclass(kw_only=True)
class SchemaDigest:
    """CP6 for one embedded schema: declared vs computed digest."""

    role: str
    pointer: str
    declared: str | None
    computed: str | None
    match: bool
    #: Why the declared digest is wrong, when it is.
    forensics: str | None = None


@dataclass(kw_only=True)
class SchemaEvidence:
    """Step 6 (CP6): every embedded schema's digest check."""

    kind: Literal["schemas"] = "schemas"
    schemas: list[SchemaDigest] = field(default_factory=list)


@dataclass(kw_only=True)
class ArgumentsEvidence:
    """Step 7 (CP7): the arguments checked, and whether this is a deliberate negative test."""

    kind: Literal["arguments"] = "arguments"
    arguments_bytes: int | None = None
    #: True when the user chose to send invalid arguments to test the agent (RULES INV3).
    negative_test: bool = False
    #: Where example arguments came from (``--args example``), else None.
    example_source: str | None = None


@dataclass(kw_only=True)
class TaskError:
    """The error object an agent reported in a task's final status (RULES ERR1-ERR5)."""

    #: The step whose task carried it: 8 (REJECTED) or 9 (FAILED).
    step: int
    #: One of the ten codes, or None when the agent gave none (or an unknown one).
    code: ErrorCode | None
    message: str
    state: str
    details: list[dict[str, Any]] = field(default_factory=list)


@dataclass(kw_only=True)
class DelegationEvidence:
    """Step 8 (CP8): what was sent and how the agent first answered."""

    kind: Literal["delegation"] = "delegation"
    mode: str
    #: The skill_version and interface_digest the request carried (RULES INV1, INV2).
    skill_version: str | None = None
    interface_digest: str | None = None
    task_id: str | None = None
    state: str | None = None
    error: TaskError | None = None
    negative_test: bool = False
    #: True when a negative test's invalid input was rejected as expected (RULES INV3).
    expected_rejection: bool = False
    #: A negative test graded here (a REJECTED task): the refusal grader's verdict.
    refusal: Verdict | None = None
    #: When the run's deadline passed here: whether CancelTask was sent, and the answer.
    deadline_cancel: str | None = None
    #: Why the user's consent was needed, when it was given for this send (RULES SID5).
    consent: str | None = None


@dataclass(kw_only=True)
class ArtifactRef:
    """An artifact named by id (the bytes are in the task and the exchange)."""

    artifact_id: str
    name: str | None = None


@dataclass(kw_only=True)
class ReceptionEvidence:
    """Step 9 (CP9): the final task state and what arrived."""

    kind: Literal["reception"] = "reception"
    task_id: str | None = None
    state: str | None = None
    #: Streamed states in arrival order (stream mode).
    status_log: list[str] = field(default_factory=list)
    #: Stream events the exchanges did not keep (``limits.MAX_STREAM_EVENTS_KEPT`` each:
    #: the first ones and the last are kept); None: every one was kept.
    stream_events_not_kept: int | None = None
    #: The first ``limits.MAX_LISTED`` artifacts; ``artifacts_not_listed`` counts the rest
    #: (None: every one is listed).
    artifacts: list[ArtifactRef] = field(default_factory=list)
    artifacts_not_listed: int | None = None
    note: str | None = None
    error: TaskError | None = None
    #: True when the task ended CANCELED because the user asked for it.
    cancelled_by_user: bool = False
    #: A negative test the agent did not reject at step 8, graded on how the task ended.
    refusal: Verdict | None = None
    #: When the run's deadline passed here: whether CancelTask was sent, and the answer.
    deadline_cancel: str | None = None
    #: Why the user's consent was needed, when it was given for this send (RULES SID5).
    consent: str | None = None


@dataclass(kw_only=True)
class RecordSummary:
    """One supporting record's verdict, by id (the artifact itself is in ``Run.records``)."""

    artifact_id: str
    kind: str | None
    valid: bool


@dataclass(kw_only=True)
class OutputEvidence:
    """Step 10 (CP10): the result's own verdict and each record's, kept apart."""

    kind: Literal["output"] = "output"
    result_artifact_id: str | None = None
    #: Findings about the result artifact only (INV5, the output schema, INV7 refs).
    result_findings: list[Finding] = field(default_factory=list)
    #: The first ``limits.MAX_LISTED`` records; ``records_not_listed`` counts the rest
    #: (None: every one is listed).
    records: list[RecordSummary] = field(default_factory=list)
    records_not_listed: int | None = None


@dataclass(kw_only=True)
class PresentationEvidence:
    """Step 11 (CP11): the results handed to the user, with what they do not mean."""

    kind: Literal["presentation"] = "presentation"
    result: Any = None
    #: The first ``limits.MAX_LISTED`` record ids; ``records_not_listed`` counts the rest
    #: (None: every one is listed).
    records: list[str] = field(default_factory=list)
    records_not_listed: int | None = None
    authority: Any = None
    note: str = ""


#: The evidence a step can hold; ``kind`` names the class in a session file.
StepEvidence = (
    CardEvidence
    | SkillEvidence
    | DescribeEvidence
    | DigestEvidence
    | DocumentEvidence
    | SchemaEvidence
    | ArgumentsEvidence
    | DelegationEvidence
    | ReceptionEvidence
    | OutputEvidence
    | PresentationEvidence
)
