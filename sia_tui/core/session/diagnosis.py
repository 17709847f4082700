"""What replay and rerun compare of each step: its whole diagnosis, not only its status.

A step that fails today for another reason than it did (a timeout where the agent's answer
was too large, the agent's ``input_invalid`` where ours was found) is a changed verdict
even though both say "failed".
"""

from __future__ import annotations

from dataclasses import dataclass

from sia_tui.core.codes import Origin
from sia_tui.core.engine.evidence import FailureCategory, Party, StepStatus
from sia_tui.core.engine.model import Run, StepResult
from sia_tui.core.engine.verdicts import default_blame


@dataclass(frozen=True)
class Diagnosis:
    """A step's verdict as compared: its status and, on failure, the draft code, where it
    was found, the kind of failure, the named error underneath and who is at fault."""

    status: StepStatus
    code: str | None = None
    origin: Origin | None = None
    category: FailureCategory | None = None
    error_kind: str | None = None
    party: Party | None = None

    @classmethod
    def of(cls, step: StepResult) -> Diagnosis:
        """The diagnosis of ``step`` (an older session's unset members read as today's
        defaults: a code found here, a code's category)."""
        if step.status is not StepStatus.FAILED:
            return cls(step.status)
        code = str(step.code) if step.code else None
        return cls(
            step.status,
            code,
            (step.origin or Origin.LOCAL) if code else None,
            step.category or (FailureCategory.DRAFT if code else None),
            step.error_kind,
            (step.blame or default_blame(step)).party,
        )

    def __str__(self) -> str:
        """ "passed", "failed (input_invalid, remote; at fault: agent)", "failed (transport,
        response_too_large; at fault: agent)"."""
        if self.status is not StepStatus.FAILED:
            return self.status.value
        parts = [self.code, str(self.origin)] if self.code else [str(self.category or "")]
        if self.error_kind and self.error_kind not in parts:
            parts.append(self.error_kind)
        who = f"; at fault: {self.party}" if self.party else ""
        return f"{self.status} ({', '.join(p for p in parts if p)}{who})"


@dataclass
class StepChange:
    """A step whose diagnosis today differs from the recorded one."""

    step: int
    title: str
    recorded: str
    today: str


def compare_steps(recorded: Run, today: Run) -> list[StepChange]:
    """The steps whose diagnosis differs, in order."""
    changes = []
    for old, new in zip(recorded.steps, today.steps, strict=True):
        was, now = Diagnosis.of(old), Diagnosis.of(new)
        if was != now:
            changes.append(StepChange(old.step, old.title, str(was), str(now)))
    return changes


def same_failure(recorded: Run, today: Run) -> bool:
    """True when both runs failed at the same step with the same diagnosis."""
    was, now = recorded.failed_step, today.failed_step
    return (
        was is not None
        and now is not None
        and was.step == now.step
        and Diagnosis.of(was) == Diagnosis.of(now)
    )
