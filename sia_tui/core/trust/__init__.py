"""Trust anchors: Agent Card signatures (A2A 1.0 section 8.4) and the contract lock.

A room of the core, above ``a2a`` and ``interface`` and below the engine, which verifies a
card's signatures at step 1 and compares the interface with a lock at step 4. cli/ and
tui/ import this package's API (names load on first use). Only ``jws.py`` imports
the JOSE library, and only a module that verifies or makes a signature imports ``jws``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.trust.key_file import write_private_key as write_private_key
    from sia_tui.core.trust.keys import load_trusted_keys as load_trusted_keys
    from sia_tui.core.trust.lock import lock_document as lock_document
    from sia_tui.core.trust.lock import lock_from_json as lock_from_json
    from sia_tui.core.trust.lock import read_lock as read_lock
    from sia_tui.core.trust.lock import with_pinned as with_pinned
    from sia_tui.core.trust.records import Canonicalization as Canonicalization
    from sia_tui.core.trust.records import ContractLock as ContractLock
    from sia_tui.core.trust.records import LockComparison as LockComparison
    from sia_tui.core.trust.records import LockStatus as LockStatus
    from sia_tui.core.trust.records import SignatureCheck as SignatureCheck
    from sia_tui.core.trust.records import SignatureVerdict as SignatureVerdict
    from sia_tui.core.trust.records import TrustAnchors as TrustAnchors
    from sia_tui.core.trust.records import TrustFileError as TrustFileError
    from sia_tui.core.trust.sign import new_signing_key as new_signing_key
    from sia_tui.core.trust.sign import public_key_set as public_key_set
    from sia_tui.core.trust.sign import read_private_key as read_private_key
    from sia_tui.core.trust.sign import self_check as self_check
    from sia_tui.core.trust.sign import sign_card as sign_card
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "Canonicalization": "sia_tui.core.trust.records",
    "ContractLock": "sia_tui.core.trust.records",
    "LockComparison": "sia_tui.core.trust.records",
    "LockStatus": "sia_tui.core.trust.records",
    "SignatureCheck": "sia_tui.core.trust.records",
    "SignatureVerdict": "sia_tui.core.trust.records",
    "TrustAnchors": "sia_tui.core.trust.records",
    "TrustFileError": "sia_tui.core.trust.records",
    "load_trusted_keys": "sia_tui.core.trust.keys",
    "lock_document": "sia_tui.core.trust.lock",
    "lock_from_json": "sia_tui.core.trust.lock",
    "new_signing_key": "sia_tui.core.trust.sign",
    "public_key_set": "sia_tui.core.trust.sign",
    "read_lock": "sia_tui.core.trust.lock",
    "read_private_key": "sia_tui.core.trust.sign",
    "self_check": "sia_tui.core.trust.sign",
    "sign_card": "sia_tui.core.trust.sign",
    "with_pinned": "sia_tui.core.trust.lock",
    "write_private_key": "sia_tui.core.trust.key_file",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
