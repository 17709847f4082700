"""The trust-anchor flags (``--trusted-keys``, ``--require-signature``, ``--lock``) and the
``TrustAnchors`` a run carries (docs/TRUST.md)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sia_tui.cli.flags import UsageError

if TYPE_CHECKING:
    from sia_tui.core.trust import TrustAnchors


def add_trust_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that name what the user trusts and requires of the agent."""
    group = parser.add_argument_group("trust anchors (docs/TRUST.md)")
    group.add_argument(
        "--trusted-keys",
        metavar="JWKS",
        help="verify the Agent Card's signatures (A2A 1.0 section 8.4) with these public "
        "keys: a JWKS file or a URL you name (a signature's jku is never fetched)",
    )
    group.add_argument(
        "--require-signature",
        action="store_true",
        help="step 1 fails unless a card signature is verified by a trusted key",
    )
    group.add_argument(
        "--lock",
        metavar="LOCK",
        help="compare the interface with a contract lock written by `sia-tui pin`: drift "
        "(same skill_version, another digest) or a wrong version bump fails step 4",
    )


def anchors_from(args: Any) -> TrustAnchors | None:
    """The run's anchors from the flags (None when none is given); a key set or lock that
    cannot be used is a UsageError (exit 2), never a half-checked run."""
    keys_at = getattr(args, "trusted_keys", None)
    lock_at = getattr(args, "lock", None)
    required = bool(getattr(args, "require_signature", False))
    if not (keys_at or lock_at or required):
        return None
    from sia_tui.core.trust import TrustAnchors, TrustFileError, load_trusted_keys, read_lock

    try:
        keys, notes = load_trusted_keys(keys_at) if keys_at else ((), [])
        lock = read_lock(lock_at) if lock_at else None
    except TrustFileError as exc:
        raise UsageError(str(exc)) from None
    for note in notes:
        print(f"sia-tui: {note}", file=sys.stderr)
    return TrustAnchors(
        keys=keys,
        keys_source=keys_at,
        require_signature=required,
        lock=lock,
        lock_source=lock_at,
    )
