"""What a probe run is made of: planned probes, what the agent answered, and each grade.

The CLI, the TUI, the JSON and JUnit reports and the session file all read this one typed
model; none of them grades anything itself (``grading.py`` does, with the engine's grader).
``Grade``, ``Answer`` and ``Observation`` are the engine's (``run/refusal.py``,
``run/agent_answer.py``), named here for the probe's readers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from sia_tui.core.exchange import Exchange
from sia_tui.core.run.agent_answer import Answer as Answer
from sia_tui.core.run.agent_answer import Observation as Observation
from sia_tui.core.run.read_model import Run, Step, StepStatus
from sia_tui.core.run.refusal import Grade as Grade

#: The draft revision every verdict is judged against (each probe names it too).
DRAFT: Final = "draft-huang-ainetops-agent-schema-interfaces-00"


class ProbeKind(StrEnum):
    """One deliberately wrong request; the value is the probe's stable id."""

    UNADVERTISED_SKILL = "unadvertised-skill"
    STALE_DIGEST = "stale-digest"
    UNKNOWN_VERSION = "unknown-version"
    UNKNOWN_MINOR_VERSION = "unknown-minor-version"
    MISSING_SKILL = "missing-skill"
    MISSING_ARGUMENTS = "missing-arguments"
    INVALID_MISSING_REQUIRED = "invalid-missing-required"
    INVALID_WRONG_TYPE = "invalid-wrong-type"
    INVALID_EXTRA_MEMBER = "invalid-extra-member"
    INVALID_ENUM_MISS = "invalid-enum-miss"
    INVALID_OUT_OF_RANGE = "invalid-out-of-range"
    OVERSIZED_INPUT = "oversized-input"
    MISSING_CREDENTIALS = "missing-credentials"


@dataclass(frozen=True)
class ProbeRequest:
    """What a probe sends: one SendMessage whose single data part is ``data``."""

    #: The skill request object (RULES INV1, DS1), deliberately wrong in one way.
    data: dict[str, Any]
    #: False when the user's headers, bearer token and client certificate are withheld.
    credentials: bool = True
    #: What is wrong with it, one phrase ("interface_digest of another document").
    note: str = ""


@dataclass(frozen=True)
class PlannedProbe:
    """A probe as planned from the learned interface, before anything is sent."""

    kind: ProbeKind
    #: None when the probe is skipped (``skip_reason`` says why).
    request: ProbeRequest | None
    #: JSON Pointers (relative to the arguments) that ``details`` may name (RULES ERR5).
    pointers: tuple[str, ...] = ()
    skip_reason: str = ""


@dataclass
class ProbeResult:
    """One graded probe: what was sent, what was expected, what came back, the verdict."""

    kind: ProbeKind
    grade: Grade
    #: One sentence: why this grade.
    reason: str
    #: The RULES id the verdict is judged against.
    rule: str
    title: str
    sent: ProbeRequest | None = None
    pointers: tuple[str, ...] = ()
    #: The expected answer, in words ("TASK_STATE_REJECTED with interface_mismatch").
    expected: str = ""
    observed: Observation | None = None
    #: On failure: what the agent should have answered.
    should_have: str = ""
    #: Sequence numbers of this probe's exchanges (see ProbeReport.exchanges).
    exchanges: list[int] = field(default_factory=list)
    draft: str = DRAFT

    @property
    def id(self) -> str:
        """The stable probe id, e.g. ``stale-digest``."""
        return self.kind.value


@dataclass
class ProbeRecord:
    """The probes of a run and their grades: what a session file's ``probe`` member holds."""

    results: list[ProbeResult] = field(default_factory=list)
    #: Where the valid arguments came from: "file", "example", "skeleton", or None.
    arguments_source: str | None = None
    #: Why steps 7-11 (the valid baseline invocation) did not run, or "" when they ran.
    baseline_skipped: str = ""
    allow_valid_invocations: bool = False
    #: The response mode the probes were sent in ("sync", "poll" or "stream").
    mode: str | None = None
    draft: str = DRAFT


@dataclass(kw_only=True)
class ProbeReport(ProbeRecord):
    """A whole probe run: the learning procedure, the probes planned, and their grades."""

    #: The eleven-step run that learned the interface (and, when allowed, the valid baseline).
    learning: Run
    planned: list[PlannedProbe] = field(default_factory=list)
    #: Every exchange of the probes, numbered after the learning run's.
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def learned(self) -> bool:
        """True when no step of the learning run failed and steps 1-6 passed."""
        learned = (s for s in Step if s <= Step.SCHEMAS)
        return self.learning.failed_step is None and all(
            self.learning.step(s).status is StepStatus.PASSED for s in learned
        )

    @property
    def baseline_failed(self) -> bool:
        """Steps 1-6 learned the interface, then the valid baseline invocation (7-11) failed."""
        failed = self.learning.failed_step
        return failed is not None and failed.step > Step.SCHEMAS

    @property
    def why_not_probed(self) -> str:
        """Why a failed run sent no probe, the clause every surface starts with ("" when no
        step failed): a failed baseline comes after steps 1-6 learned the interface."""
        if self.learning.failed_step is None:
            return ""
        if self.baseline_failed:
            return (
                "steps 1-6 learned the interface, but the valid baseline invocation "
                "(steps 7-11) failed"
            )
        return "the interface was not learned"

    def count(self, grade: Grade) -> int:
        """How many probes got ``grade``."""
        return sum(1 for r in self.results if r.grade is grade)

    @property
    def outcome(self) -> str:
        """ "not_learned", "failed" (some probe failed) or "passed"."""
        if not self.learned:
            return "not_learned"
        return "failed" if self.count(Grade.FAIL) else "passed"

    def all_exchanges(self) -> list[Exchange]:
        """The learning run's exchanges, then the probes', in one numbering."""
        return [*self.learning.exchanges, *self.exchanges]
