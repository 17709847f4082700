"""The trust anchors on screen: the card's signatures (Overview) and the contract lock
(Digests). The engine judged both; this only colours. Key ids, algorithms, reasons and
pointers come from the agent's card or document: all shown literally."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from sia_tui.tui.display import DisplayPolicy

if TYPE_CHECKING:  # the trust records load with a signed card or a lock, not at start
    from sia_tui.core.trust import LockComparison, SignatureCheck

# Keyed by value: a StrEnum member is its value (tests/tui/test_trust_colours.py
# holds each table to its enum).
#: Theme variable per signature verdict (``SignatureVerdict``).
VERDICT_STYLE: dict[str, str] = {
    "verified": "$digest-match",
    "invalid": "$digest-mismatch",
    "unverifiable": "$warning",
}
#: Theme variable per lock status (``LockStatus``).
LOCK_STYLE: dict[str, str] = {
    "unchanged": "$digest-match",
    "version-changed": "$digest-match",
    "drift": "$digest-mismatch",
    "wrong-bump": "$digest-mismatch",
    "not-pinned": "$warning",
}
#: Changes listed on the Digests screen (the rest are counted).
SHOWN_CHANGES = 8


def signatures_content(checks: list[SignatureCheck], policy: DisplayPolicy) -> Content | None:
    """``Signatures (A2A 8.4)`` and one line per signature; None for an unsigned card."""
    if not checks:
        return None
    literal = policy.literal
    lines = [Content.styled("\nSignatures (A2A 1.0 section 8.4)", "bold underline")]
    for check in checks:
        how = f" ({check.canonicalization})" if check.canonicalization else ""
        lines.append(
            Content.assemble(
                f"  #{check.index} ",
                literal(check.kid or "(no kid)", style="bold"),
                " ",
                literal(check.alg or "(no alg)"),
                "  ",
                (f"{check.verdict}{how}", f"bold {VERDICT_STYLE[check.verdict]}"),
            )
        )
        if check.reason:
            lines.append(Content("    ") + literal(check.reason, style="$text-muted"))
        if check.keys_not_tried:
            lines.append(Content("    ") + literal(check.keys_not_tried, style="$warning"))
        if check.jku:
            lines.append(
                Content("    jku ") + literal(check.jku) + Content.styled(" (never fetched)", "dim")
            )
    return Content("\n").join(lines)


def lock_lines(lock: LockComparison | None, policy: DisplayPolicy) -> list[Content]:
    """The lock comparison for the Digests screen's panel ([] without a lock)."""
    if lock is None:
        return []
    literal = policy.literal
    lines = [
        Content.styled("Contract lock: ", f"bold {LOCK_STYLE[lock.status]}")
        + Content.styled(str(lock.status), f"bold {LOCK_STYLE[lock.status]}")
        + Content("  ")
        + literal(lock.reason)
    ]
    if lock.diff_verdict is not None:
        lines.append(Content(f"  diff from the pinned document: {lock.diff_verdict}"))
    for change in lock.changes[:SHOWN_CHANGES]:
        style = "$digest-mismatch" if change.impact == "breaking" else "$text-muted"
        lines.append(
            Content.assemble(
                (f"  {change.impact:<10} ", style),
                literal(change.pointer),
                "  ",
                literal(change.reason),
            )
        )
    if len(lock.changes) > SHOWN_CHANGES:
        lines.append(Content(f"  … {len(lock.changes) - SHOWN_CHANGES} more (check --lock --json)"))
    return lines
