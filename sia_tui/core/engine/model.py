"""What a run of the procedure is made of: eleven step results and the run's state."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.a2a.model import AgentCard, Artifact, Interface, Task
from sia_tui.core.codes import ErrorCode, Origin
from sia_tui.core.exchange import Exchange
from sia_tui.core.findings import Finding


class StepStatus(StrEnum):
    """The state of one step. RUNNING exists only while a step executes."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    NOT_RUN = "not_run"
    RUNNING = "running"


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
    #: What to do next, one sentence; set on failure.
    hint: str = ""
    findings: list[Finding] = field(default_factory=list)
    #: Sequence numbers of the exchanges this step made (see Run.exchanges).
    exchanges: list[int] = field(default_factory=list)
    #: JSON-serializable evidence (digests, selected binding, task id...).
    evidence: dict[str, Any] = field(default_factory=dict)

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
    mode: str | None = None
    task: Task | None = None
    result: Artifact | None = None
    records: list[RecordResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

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
    def outcome(self) -> str:
        """ "failed" if a step failed, else "passed" (for the steps that ran)."""
        return "failed" if self.failed_step else "passed"
