"""The typed evidence of steps 2-11 (step 1's, ``CardEvidence``, and the small types they
share are in ``evidence.py``), and ``StepEvidence``, the evidence a step can hold.

Loaded when a run goes past step 1 (or a session holding such a step is read): `sia-tui
open URL` shows the card without building these fourteen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from sia_tui.core.codes import ErrorCode
from sia_tui.core.findings import Finding
from sia_tui.core.interface.threeway import DigestSource, odd_one_out
from sia_tui.core.run.evidence import CardEvidence

# Only a lock or a negative test makes these (session/dataclass_json resolves them when a
# session holds one).
if TYPE_CHECKING:
    from sia_tui.core.run.refusal import Verdict
    from sia_tui.core.trust.records import LockComparison


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


def wire_note(evidence: object) -> str | None:
    """What step 9 did beyond the mode's one exchange, as the wire shows it (a stream that
    ended early, resubscribed or polled), from a step's evidence: the step's message says
    only how the task ended. The text report and the bug report say it."""
    return evidence.note or None if isinstance(evidence, ReceptionEvidence) else None


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
