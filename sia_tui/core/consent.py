"""Consent: why an invocation waits for the user's yes, and the one flag that gives it.

Plain names with no imports, so that building the CLI parser stays light; the rule itself
(which documents ask, and when step 8 waits) is ``run/answers.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: The flag every command that invokes takes for consent (check, matrix, probe, rerun).
CONSENT_FLAG: Final = "--allow-execute"
#: probe's name for it before every command had one; scripts keep working.
OLD_CONSENT_FLAG: Final = "--allow-valid-invocations"


@dataclass(frozen=True)
class ConsentNeed:
    """Why an invocation of this skill waits for the user's explicit yes."""

    authority: str
    """The declared ``authority.default_mode`` (``execute``, or e.g. ``recommend_only`` when
    approval may be required)."""
    approval: bool
    """True when the document declares ``approval_may_be_required: true``."""
    reason: str
    """The same, said in a clause: "the document declares execute authority"."""
