"""What a fuzz run found: each case sent, its grade, and the failures shrunk to the smallest."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.run.read_model import Run, Step, StepStatus
from sia_tui.core.run.refusal import Grade


class CaseKind(StrEnum):
    """Arguments the validator accepts, or valid ones broken by exactly one mutation."""

    VALID = "valid"
    INVALID = "invalid"


class FindingKind(StrEnum):
    """What a failing case shows, and who is at fault (docs/FUZZ.md): always the agent."""

    #: Valid arguments refused with input_invalid (RULES INV3).
    VALID_REFUSED = "valid-refused"
    #: Valid arguments answered with a result or record its schema refuses (RULES CP10).
    OUTPUT_INVALID = "output-invalid"
    #: Valid arguments answered with no usable task (a transport error, a wrong envelope).
    VALID_FAILED = "valid-failed"
    #: Invalid arguments accepted (RULES INV3).
    INVALID_ACCEPTED = "invalid-accepted"
    #: Invalid arguments refused, but not with input_invalid in TASK_STATE_REJECTED and
    #: details at the bad member (RULES ERR1, ERR3, ERR5).
    WRONG_REFUSAL = "wrong-refusal"


class FuzzOutcome(StrEnum):
    """The verdict of a whole fuzz run."""

    PASSED = "passed"
    FAILED = "failed"
    #: Nothing failed, but the run did not send what it should (not learned, no consent,
    #: no value generated): never "passed".
    INCOMPLETE = "incomplete"


@dataclass
class FuzzCase:
    """One invocation sent: its arguments, how it was made, and the grade of the answer."""

    number: int
    kind: CaseKind
    arguments: Any
    grade: Grade
    rule: str
    reason: str
    #: The mutation kind for an invalid case ("" for a valid one) and what it changed.
    mutation: str = ""
    note: str = ""
    finding: FindingKind | None = None
    #: Which saved run holds the invocation (0-based) and its number there (1-based).
    run_index: int = 0
    invocation: int = 0
    #: True for the smallest failing arguments hypothesis shrank to.
    shrunk: bool = False


@dataclass
class FuzzSettings:
    """The bounds of one fuzz run, all from the person running it."""

    examples: int = 50
    seed: int = 0
    #: Seconds for generation and sending; past it no new case is sent.
    max_time: float = 120.0
    #: Most invocations per second.
    rate: float = 4.0
    allow_execute: bool = False


@dataclass
class FuzzReport:
    """A whole fuzz run: the learning run, every case, the failures."""

    learning: Run
    skill: str
    settings: FuzzSettings
    cases: list[FuzzCase] = field(default_factory=list)
    #: The runs whose invocations the cases are (a run holds at most MAX_INVOCATIONS).
    runs: list[Run] = field(default_factory=list)
    #: Why nothing was sent ("" when cases were): not learned, consent, no strategy.
    skipped: str = ""
    #: Why the run stopped before ``examples`` cases ("" when it did not).
    stopped: str = ""
    #: Values hypothesis-jsonschema generated that the 2020-12 validator refused.
    refused_by_validator: int = 0
    #: True once the run sends nothing more: before, no case failing is not "passed".
    ended: bool = False

    @property
    def learned(self) -> bool:
        """True when steps 1-6 passed."""
        run = self.learning
        return all(run.step(s).status is StepStatus.PASSED for s in Step if s <= Step.SCHEMAS)

    @property
    def failures(self) -> list[FuzzCase]:
        """The shrunk failing cases, one per property that failed."""
        return [c for c in self.cases if c.shrunk]

    def count(self, grade: Grade, kind: CaseKind | None = None) -> int:
        """How many cases got ``grade`` (of ``kind``, when given)."""
        return sum(1 for c in self.cases if c.grade is grade and kind in (None, c.kind))

    @property
    def outcome(self) -> FuzzOutcome:
        """Failed when a case failed; incomplete when nothing was sent, or while the run
        goes on (the next case may fail)."""
        if any(c.grade is Grade.FAIL for c in self.cases):
            return FuzzOutcome.FAILED
        if self.skipped or not self.cases or not self.ended:
            return FuzzOutcome.INCOMPLETE
        return FuzzOutcome.PASSED
