"""What replay and rerun compare of each step: its whole diagnosis, not only its status.

A step that fails today for another reason than it did (a timeout where the agent's answer
was too large, the agent's ``input_invalid`` where ours was found) is a changed verdict
even though both say "failed".
"""

from __future__ import annotations

from dataclasses import dataclass

from sia_tui.core.codes import DetectedBy
from sia_tui.core.run.evidence import FailureCategory, Party, StepStatus
from sia_tui.core.run.read_model import Run, Step, StepResult
from sia_tui.core.run.verdicts import default_blame


@dataclass(frozen=True)
class Diagnosis:
    """A step's verdict as compared: its status and, on failure, the draft code, where it
    was found, the kind of failure, the named error underneath and who is at fault."""

    status: StepStatus
    code: str | None = None
    origin: DetectedBy | None = None
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
            (step.origin or DetectedBy.LOCAL) if code else None,
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
    """The steps whose diagnosis differs, in order, and the trust verdicts inside steps 1
    and 4 (the card's signatures verified again today, the contract lock compared again)."""
    changes = []
    for old, new in zip(recorded.steps, today.steps, strict=True):
        was, now = Diagnosis.of(old), Diagnosis.of(new)
        if was != now:
            changes.append(StepChange(old.step, old.title, str(was), str(now)))
    for step, then_said, now_said in (
        (Step.CARD, _signatures(recorded), _signatures(today)),
        (Step.DIGESTS, _lock(recorded), _lock(today)),
    ):
        if then_said != now_said and not any(change.step == step for change in changes):
            changes.append(StepChange(step, recorded.step(step).title, then_said, now_said))
    return sorted(changes, key=lambda change: change.step)


#: How a replay names the plain A2A message of a ``sia-tui send`` run (no step sent it).
PLAIN_TITLE = "plain A2A message"


def compare_plain(recorded: Run, today: Run) -> list[StepChange]:
    """The plain message's answer (``sia-tui send``), when today's differs from the
    recorded one: sent or held, the answer's kind and state, the error's kind."""
    was, now = _plain(recorded), _plain(today)
    return [] if was == now else [StepChange(0, PLAIN_TITLE, was, now)]


def _plain(run: Run) -> str:
    plain = run.plain
    if plain is None:
        return "none"
    if plain.held:
        return f"not sent: {plain.held}"
    answer = (
        f"task {run.task.state}"
        if run.task is not None
        else ("message" if plain.message is not None else "no answer")
    )
    error = f", error {plain.error_kind}" if plain.error is not None else ""
    return f"sent: {answer}{error}"


def _signatures(run: Run) -> str:
    """The card signatures' verdicts in order: ``signatures: verified, invalid``."""
    verdicts = [str(check.verdict) for check in run.answers.card_signatures]
    return "signatures: " + (", ".join(verdicts) if verdicts else "none")


def _lock(run: Run) -> str:
    lock = run.answers.lock
    return f"contract lock: {lock.status}" if lock is not None else "contract lock: none"


def same_failure(recorded: Run, today: Run) -> bool:
    """True when both runs failed at the same step with the same diagnosis."""
    was, now = recorded.failed_step, today.failed_step
    return (
        was is not None
        and now is not None
        and was.step == now.step
        and Diagnosis.of(was) == Diagnosis.of(now)
    )
