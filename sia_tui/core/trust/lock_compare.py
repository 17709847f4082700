"""The interface an agent advertises now, compared with its contract lock (RULES SID2).

The draft's versioning rule says any change bumps skill_version: the minor for a compatible
change, the major for a breaking one. So the same version under another digest is drift,
and a bump whose class does not match the structural diff from the pinned document is a
wrong bump. A lock may span several releases, so a bump is judged by its kind (major or
minor), not by the exact next number ``sia-tui diff`` asks of two consecutive versions.
"""

from __future__ import annotations

import re
from typing import Any

from sia_tui.core.interface.document_diff import diff_documents
from sia_tui.core.trust.lock import find_pinned
from sia_tui.core.trust.records import (
    ContractLock,
    LockChange,
    LockComparison,
    LockStatus,
    PinnedSkill,
)

_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
#: Most changes a comparison keeps (the count says how many there were).
MAX_LOCK_CHANGES = 200


def compare_lock(
    lock: ContractLock,
    *,
    agent: str,
    card: str,
    skill_id: str,
    version: str | None,
    digest: str | None,
    document: Any,
) -> LockComparison:
    """``document`` (advertised as ``version`` and ``digest``) against the lock's entry."""
    entry, pinned = find_pinned(lock, agent=agent, card=card, skill_id=skill_id)
    result = LockComparison(
        status=LockStatus.NOT_PINNED,
        skill_id=skill_id,
        agent=entry.agent if entry else None,
        current_version=version,
        current_digest=digest,
    )
    if pinned is None:
        where = f"agent {entry.agent!r}" if entry else f"this agent ({agent!r} at {card})"
        result.reason = (
            f"the lock pins no skill {skill_id!r} for {where}: pin it with sia-tui pin, "
            "or give the lock that does"
        )
        return result
    result.pinned_version, result.pinned_digest = pinned.skill_version, pinned.interface_digest
    if version == pinned.skill_version and digest == pinned.interface_digest:
        result.status = LockStatus.UNCHANGED
        result.reason = f"{skill_id} {version} is the interface the lock pinned"
        return result
    change_class = _diff_into(result, pinned, document)
    if version == pinned.skill_version:
        result.status = LockStatus.DRIFT
        result.reason = (
            f"{skill_id} changed under the same skill_version {version}: the digest is "
            f"{digest}, the lock pinned {pinned.interface_digest} (RULES SID2: any change "
            "bumps the version)"
        )
        return result
    problem = _wrong_bump(pinned.skill_version, version, change_class)
    result.status = LockStatus.WRONG_BUMP if problem else LockStatus.VERSION_CHANGED
    result.reason = (
        f"{skill_id} {pinned.skill_version} -> {version}: "
        + (problem or f"a bump that matches its {change_class or 'unknown'} changes")
        + (" (RULES SID2)" if problem else "")
    )
    return result


def _diff_into(result: LockComparison, pinned: PinnedSkill, document: Any) -> str | None:
    """Record the structural diff from the pinned document; its change class."""
    if not isinstance(document, dict):
        return None
    diff = diff_documents(pinned.document, document)
    result.diff_verdict = diff.version.change_class
    result.changes = [
        LockChange(
            pointer=c.pointer, where=c.where, kind=c.kind, impact=str(c.impact), reason=c.reason
        )
        for c in diff.changes[:MAX_LOCK_CHANGES]
    ]
    return result.diff_verdict


def _parse(version: str | None) -> tuple[int, int] | None:
    if version is None or not _VERSION.fullmatch(version):
        return None
    major, minor = version.split(".")
    return int(major), int(minor)


def _wrong_bump(old: str, new: str | None, change_class: str | None) -> str | None:
    """Why the bump from ``old`` to ``new`` breaks SID2 for these changes, else None."""
    before, after = _parse(old), _parse(new)
    if before is None or after is None:
        return f"{old if before is None else new!r} is not MAJOR.MINOR"
    if after < before:
        return "the version went backwards"
    if change_class is None:
        return None  # nothing to judge the bump by (no document)
    if after[0] > before[0] and change_class != "breaking":
        return "a major bump without a breaking change (a compatible change bumps the minor)"
    if after[0] == before[0] and change_class == "breaking":
        return "a minor bump with breaking changes (a breaking change bumps the major)"
    return None
