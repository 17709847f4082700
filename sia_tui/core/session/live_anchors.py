"""The trust anchors of a live rerun: the command's own, never the session file's.

A session stores the anchors its run was checked against (trusted public keys, a required
signature, the compared lock entry) so that an offline replay reproduces the recorded
verdict. A session file is someone else's input: a key edited into it would make a live
agent's forged card "verified". So a live run takes its anchors only from the flags of the
person running it (``--trusted-keys``, ``--require-signature``, ``--lock``), and says what
the file recorded instead (docs/SECURITY.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from sia_tui.core.trust.records import ContractLock, TrustAnchors

_NO_ANCHORS = TrustAnchors()


def _keys(anchors: TrustAnchors) -> str:
    if not anchors.keys:
        return "no trusted keys"
    kids = ", ".join(sorted({key.kid for key in anchors.keys}))
    return f"{len(anchors.keys)} trusted key(s) (kid {kids})"


def _lock(lock: ContractLock | None) -> str:
    if lock is None:
        return "no contract lock"
    return f"a contract lock ({lock.digest})" if lock.digest else "a contract lock"


def _same_lock(recorded: ContractLock | None, given: ContractLock | None) -> bool:
    """A session keeps only the compared entry and the lock's digest: the digest says
    whether the flag named the same lock file."""
    if recorded is None or given is None:
        return recorded is given
    return recorded.digest is not None and recorded.digest == given.digest


def anchor_notes(recorded: Iterable[TrustAnchors | None], given: TrustAnchors | None) -> list[str]:
    """One sentence per anchor a session recorded that this live run does not use."""
    now = given or _NO_ANCHORS
    notes: list[str] = []
    why = "(a session file grants no trust: the command's flags do)"
    for then in recorded:
        then = then or _NO_ANCHORS
        if set(then.keys) != set(now.keys) and then.keys:
            notes.append(
                f"the session recorded {_keys(then)}; this run uses {_keys(now)} "
                f"(--trusted-keys) {why}"
            )
        if then.require_signature and not now.require_signature:
            notes.append(
                "the session recorded require_signature yes; this run uses no "
                f"(--require-signature) {why}"
            )
        if then.lock is not None and not _same_lock(then.lock, now.lock):
            notes.append(
                f"the session recorded {_lock(then.lock)}; this run uses {_lock(now.lock)} "
                f"(--lock) {why}"
            )
    return list(dict.fromkeys(notes))  # several invocations record the same anchors
