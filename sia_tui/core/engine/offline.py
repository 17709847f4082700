"""Steps 4-6 on a document file, offline: the engine's own step code, without a run's gate.

``sia-tui lint`` and a document file given to ``diff`` are checked here, so a file and a
live agent's document get exactly the same verdict (RULES CP4, CP5, CP6).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from sia_tui.core.constants import DIGEST_MEMBER, DOCUMENT_MEMBER
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.engine.step_runner import record_failure
from sia_tui.core.engine.steps.verification import digests_step, document_step, embedded_step
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.needs import Need, word
from sia_tui.core.run.later_evidence import DigestEvidence
from sia_tui.core.run.read_model import Run, Step, StepResult, StepStatus, Target


@dataclass(frozen=True)
class OfflineVerdict:
    """Steps 4 (only with a digest), 5 and 6 on one document, each run whatever the others
    said, so every problem of the file is listed at once."""

    document: Any
    steps: list[StepResult]

    @property
    def findings(self) -> list[Finding]:
        """Every finding of the steps that ran, in step order."""
        return [f for step in self.steps for f in step.findings]

    @property
    def digests(self) -> DigestEvidence | None:
        """Step 4's three digests, when it ran (a digest was given)."""
        for step in self.steps:
            if isinstance(step.evidence, DigestEvidence):
                return step.evidence
        return None

    @property
    def ok(self) -> bool:
        """True when no step failed and no finding is an error."""
        return all(s.status is StepStatus.PASSED for s in self.steps) and not any(
            f.severity is Severity.ERROR for f in self.findings
        )


def unwrap_payload(value: Any) -> tuple[Any, str | None]:
    """A describe_skill payload's document and digest, or ``value`` itself and None."""
    if isinstance(value, dict) and DOCUMENT_MEMBER in value and DIGEST_MEMBER in value:
        digest = value[DIGEST_MEMBER]
        return value[DOCUMENT_MEMBER], digest if isinstance(digest, str) else repr(digest)
    return value, None


def verify_offline(
    document: Any,
    *,
    advertised: str | None = None,
    returned: str | None = None,
    advertiser: str | None = None,
) -> OfflineVerdict:
    """Run steps 4-6 on ``document``; step 4 (when a digest is given) compares the
    ``advertised`` digest (``lint --digest``), the ``returned`` one (a describe_skill
    payload's own ``interface_digest``) and the computed one, whichever are present, with
    the engine's own step code (RULES CP4).
    """
    ids = document if isinstance(document, dict) else {}
    run = Run(target=Target("(document file)"))
    run.document = document
    run.skill_id, run.skill_version = str(ids.get("skill_id")), str(ids.get("skill_version"))
    run.digests.advertised, run.digests.returned = advertised, returned
    steps: dict[Step, Callable[[Run, StepResult], None]] = {
        Step.DIGESTS: partial(digests_step, advertiser=advertiser or word(Need.EXPECTED_DIGEST)),
        Step.DOCUMENT: document_step,
        Step.SCHEMAS: embedded_step,
    }
    given = advertised is not None or returned is not None
    numbers = list(steps) if given else [Step.DOCUMENT, Step.SCHEMAS]
    for number in numbers:
        result = run.step(number)
        try:
            steps[number](run, result)
            result.status = StepStatus.PASSED
        except StepFailed as failure:
            record_failure(result, failure)
    return OfflineVerdict(document, [run.step(n) for n in numbers])
