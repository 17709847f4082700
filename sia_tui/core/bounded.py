"""Bounded lists of findings and warnings: a flood costs linear time and shows "N more".

An agent can make any check produce a finding or a warning per entry it sends. Every list
is therefore capped where it is produced (``limits.MAX_FINDINGS``/``MAX_WARNINGS``) with
one closing entry that counts what was left out, and merged with set lookups, never with
``x not in list`` (which made 100,000 entries cost minutes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sia_tui.core import limits
from sia_tui.core.findings import Finding, Severity

#: Rule id of the closing "N more" finding (not one of the draft's rules).
MORE_RULE = "LIMIT"

T = TypeVar("T")


@dataclass(frozen=True)
class MoreFindings(Finding):
    """The closing finding that stands for findings not kept; it counts them."""

    left_out: int = 0
    #: How many of those were errors (a flood of errors still fails the step).
    left_out_errors: int = 0
    #: Counting stopped before the end: there are at least this many (validation floods).
    at_least: bool = False


def more_findings(left_out: int, left_out_errors: int, limit: int) -> MoreFindings:
    """The closing finding for ``left_out`` findings (``left_out_errors`` errors) not kept."""
    return MoreFindings(
        f"{left_out} more finding(s) not kept ({left_out_errors} error(s)): at most "
        f"{limit} are kept and shown",
        severity=Severity.ERROR if left_out_errors else Severity.INFO,
        rule=MORE_RULE,
        left_out=left_out,
        left_out_errors=left_out_errors,
    )


def cap_findings(findings: Iterable[Finding], limit: int = limits.MAX_FINDINGS) -> list[Finding]:
    """The first ``limit`` findings, plus one that counts the rest (earlier counts included)."""
    kept: list[Finding] = []
    left_out = left_out_errors = 0
    for finding in findings:
        if isinstance(finding, MoreFindings) and finding.at_least:
            kept.append(finding)  # its "at least" count would be lost in a sum
        elif isinstance(finding, MoreFindings):
            left_out += finding.left_out
            left_out_errors += finding.left_out_errors
        elif len(kept) < limit:
            kept.append(finding)
        else:
            left_out += 1
            left_out_errors += finding.severity is Severity.ERROR
    if left_out:
        kept.append(more_findings(left_out, left_out_errors, limit))
    return kept


def error_count(findings: Iterable[Finding]) -> int:
    """How many errors ``findings`` stand for, those counted by a closing finding included."""
    count = 0
    for finding in findings:
        if isinstance(finding, MoreFindings):
            count += finding.left_out_errors
        else:
            count += finding.severity is Severity.ERROR
    return count


def error_count_text(findings: Iterable[Finding]) -> str:
    """The error count as a person reads it: "3", or "at least 10000" when counting stopped."""
    listed = list(findings)
    return _at_least(listed) + str(error_count(listed))


def more_than_first(findings: Iterable[Finding]) -> str:
    """What follows the first error's message: " (+2 more)", " (+at least 9999 more)", or ""
    for a single error."""
    listed = list(findings)
    total = error_count(listed)
    return f" (+{_at_least(listed)}{total - 1} more)" if total > 1 else ""


def _at_least(findings: list[Finding]) -> str:
    stopped = any(isinstance(f, MoreFindings) and f.at_least for f in findings)
    return "at least " if stopped else ""


def merge_findings(target: list[Finding], extra: Iterable[Finding]) -> None:
    """Append the findings of ``extra`` that ``target`` does not hold yet (linear)."""
    seen = set(target)
    for finding in extra:
        if finding not in seen:
            seen.add(finding)
            target.append(finding)


def more_warnings(left_out: int, limit: int) -> str:
    """The closing warning for ``left_out`` warnings not kept."""
    return f"{left_out} more warning(s) not kept: at most {limit} are kept and shown"


_MORE_WARNINGS = re.compile(r"(\d+) more warning\(s\) not kept: at most \d+ are kept and shown")


def cap_warnings(warnings: Iterable[str], limit: int = limits.MAX_WARNINGS) -> list[str]:
    """The first ``limit`` warnings, plus one that counts the rest (earlier counts included)."""
    kept: list[str] = []
    left_out = 0
    for warning in warnings:
        if counted := _MORE_WARNINGS.fullmatch(warning):
            left_out += int(counted.group(1))
        elif len(kept) < limit:
            kept.append(warning)
        else:
            left_out += 1
    if left_out:
        kept.append(more_warnings(left_out, limit))
    return kept


def merge_warnings(target: list[str], extra: Iterable[str]) -> None:
    """Append the warnings of ``extra`` that ``target`` does not hold yet, within the cap."""
    seen = set(target)
    fresh = [w for w in extra if not (w in seen or seen.add(w))]  # type: ignore[func-returns-value]
    if fresh:
        target[:] = cap_warnings([*target, *fresh], limits.MAX_WARNINGS)


def named_few(names: Sequence[str], limit: int = limits.MAX_NAMED) -> str:
    """``'a', 'b', 'c' and 49997 more``: at most ``limit`` names quoted, the rest counted."""
    quoted = ", ".join(repr(name) for name in names[:limit])
    more = len(names) - limit
    return f"{quoted} and {more} more" if more > 0 else quoted


def listed(items: Sequence[T], limit: int = limits.MAX_LISTED) -> tuple[list[T], int]:
    """The first ``limit`` items, and how many were left out."""
    return list(items[:limit]), max(0, len(items) - limit)
