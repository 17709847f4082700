"""The trust anchors inside the procedure: card signatures at step 1, the lock at step 4.

Both are read from the run's target (``Target.anchors``), so the CLI, the TUI, the matrix
and replay all check the same way. Without ``--require-signature`` the signatures never fail
a run; an invalid one is a warning on step 1. A lock fails step 4 on drift or a wrong bump.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sia_tui.core.constants import CARD_SIGNATURES
from sia_tui.core.engine.outcome import StepFailed
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.redaction.userinfo import target_identity
from sia_tui.core.run.evidence import Blame, CardEvidence, FailureCategory, NextAction, Party
from sia_tui.core.run.read_model import Run, StepResult, Target

if TYPE_CHECKING:
    from sia_tui.core.run.later_evidence import DigestEvidence
    from sia_tui.core.trust.records import SignatureCheck


def verify_card_signatures(
    run: Run, result: StepResult, evidence: CardEvidence, received: bytes | None
) -> None:
    """A2A 1.0 section 8.4.3 on the card just read; fails step 1 only when a verified
    signature is required and none is."""
    assert run.card is not None
    anchors = run.target.anchors
    # constants, not trust.card_fields: its table of the card's fields loads with a signature.
    entries = run.card.raw.get(CARD_SIGNATURES)
    checks: list[SignatureCheck] = []
    if isinstance(entries, list):  # an unsigned card has nothing to verify (and no JWS to load)
        from sia_tui.core.trust.verify import check_signatures

        checks = check_signatures(run.card.raw, anchors, received=received)
    evidence.signatures = checks
    if isinstance(entries, list) and len(entries) > len(checks):
        run.warnings.append(
            f"the card carries {len(entries)} signatures; the first {len(checks)} were checked"
        )
    if not checks and (anchors is None or not anchors.require_signature):
        return  # nothing verified, nothing required: a plain run loads no trust records
    from sia_tui.core.trust.records import SignatureVerdict

    for check in checks:
        if check.verdict is SignatureVerdict.INVALID:
            message = f"card signature {check.index} ({check.kid}) is invalid: {check.reason}"
            result.findings.append(
                Finding(message, severity=Severity.WARNING, pointer=f"/signatures/{check.index}")
            )
            run.warnings.append(message)
    if anchors is None or not anchors.require_signature:
        return
    if any(check.verdict is SignatureVerdict.VERIFIED for check in checks):
        return
    if not checks:
        message = "the Agent Card is not signed, and a verified signature is required"
    else:
        first = checks[0]
        message = (
            f"no signature of the Agent Card is verified ({len(checks)} checked; the first is "
            f"{first.verdict}: {first.reason})"
        )
    raise StepFailed(
        message,
        hint="Sign the card as A2A 1.0 section 8.4 says (sia-tui sign-card makes a correct "
        "signature) with a key the client trusts; each signature's verdict says why it "
        "does not count.",
        category=FailureCategory.TRUST,
        blame=Blame(party=Party.AGENT, statement=message),
        next_action=NextAction.SHOW_EXCHANGE,
    )


def compare_with_lock(run: Run, evidence: DigestEvidence) -> None:
    """Record the interface against the contract lock (``--lock``), when one was given."""
    anchors = run.target.anchors
    if anchors is None or anchors.lock is None or run.skill_id is None or run.card is None:
        return
    # Only a run given a lock needs the document diff it reads (the card's step 1 does not).
    from sia_tui.core.trust.lock_compare import compare_lock

    evidence.lock = compare_lock(
        anchors.lock,
        **_lock_entry(run, run.card.name, run.skill_id),
        version=run.skill_version,
        digest=run.digests.advertised,
        document=run.document,
    )


def _lock_entry(run: Run, card_name: str, skill_id: str) -> dict[str, str]:
    """What names a run's entry in the lock: the card's name and location, the skill."""
    return {
        "agent": card_name,
        "card": target_identity(run.card_url or run.target.location),
        "skill_id": skill_id,
    }


def target_to_save(run: Run) -> Target:
    """The run's target as a session keeps it: a lock narrowed to the entry this run
    compares (or would have, had it reached step 4) and the lock's digest."""
    target = run.target
    anchors = target.anchors
    if anchors is None or anchors.lock is None:
        return target
    from sia_tui.core.trust.records import ContractLock  # loaded with the lock it narrows

    if run.card is None or run.skill_id is None:
        lock = ContractLock(digest=anchors.lock.digest)  # nothing to compare: no entry
    else:
        from sia_tui.core.trust.lock import narrowed  # only a run given a lock

        lock = narrowed(anchors.lock, **_lock_entry(run, run.card.name, run.skill_id))
    return replace(target, anchors=replace(anchors, lock=lock))


def enforce_lock(evidence: DigestEvidence) -> None:
    """Fail step 4 on drift or a wrong bump; a lock that pins nothing here is a usage error."""
    lock = evidence.lock
    if lock is None:
        return
    from sia_tui.core.trust.records import FAILING_LOCK_STATUSES, LockStatus  # with the lock

    if lock.status is LockStatus.NOT_PINNED:
        raise StepFailed(
            lock.reason,
            hint="Give the lock that pins this agent and skill, or pin it: "
            "`sia-tui pin` CARD, a skill and a lock file to write.",
            category=FailureCategory.USAGE,
            blame=Blame(party=Party.CALLER, statement=lock.reason),
            next_action=NextAction.SHOW_DIGESTS,
        )
    if lock.status in FAILING_LOCK_STATUSES:
        raise StepFailed(
            f"contract lock {lock.status}: {lock.reason}",
            hint="Bump skill_version as RULES SID2 says: the minor for compatible changes, "
            "the major for breaking ones; the diff from the pinned document lists them.",
            category=FailureCategory.TRUST,
            findings=[
                Finding(
                    f"{lock.status}: {lock.reason}",
                    pointer="/skill_version",
                    rule="SID2",
                )
            ],
            blame=Blame(party=Party.AGENT, statement=lock.reason),
            next_action=NextAction.SHOW_DIGESTS,
        )
