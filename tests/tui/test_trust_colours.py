"""The colours of the trust verdicts, keyed by value so the trust records load only with a
signature or a lock (README "Performance")."""

from __future__ import annotations

from sia_tui.core.trust import LockStatus, SignatureVerdict
from sia_tui.tui.render.trust import LOCK_STYLE, VERDICT_STYLE


def test_the_trust_colours_name_every_verdict_and_lock_status() -> None:
    """Each member of the enums has its colour, and nothing else is listed."""
    assert set(VERDICT_STYLE) == {v.value for v in SignatureVerdict}
    assert set(LOCK_STYLE) == {s.value for s in LockStatus}
    assert all(VERDICT_STYLE[v] for v in SignatureVerdict)  # a member finds its value's key
