"""Consent: why an invocation waits for the user's yes (``Need.CONSENT`` gives it).

Plain names with no imports, so that building the CLI parser stays light; the rule itself
(which documents ask, and when step 8 waits) is ``run/answers.py``.
"""

from __future__ import annotations

from typing import NamedTuple


class ConsentNeed(NamedTuple):
    """Why an invocation of this skill waits for the user's explicit yes.

    A NamedTuple, not a dataclass: `sia-tui --help` imports this module for the flag's name,
    and ``dataclasses`` (with ``inspect``) is start-up milliseconds it would not use."""

    authority: str
    """The declared ``authority.default_mode`` (``execute``, or e.g. ``recommend_only`` when
    approval may be required)."""
    approval: bool
    """True when the document declares ``approval_may_be_required: true``."""
    reason: str
    """The same, said in a clause: "the document declares execute authority"."""
