"""The fuzz report as text: the counts, then each failure with its shrunk arguments.

Agent text (reasons quote what the agent said) is made printable here; the command that
reproduces a failure is the CLI's to spell (the core names no flag).
"""

from __future__ import annotations

import json

from sia_tui.core.fuzz.results import CaseKind, FuzzCase, FuzzReport
from sia_tui.core.output.policy import paint, printable
from sia_tui.core.run.refusal import Grade

_COLOURS = {"passed": "32", "failed": "31", "incomplete": "33"}


def arguments_text(case: FuzzCase) -> str:
    """The case's arguments as one line of compact JSON (escaped: printable as is)."""
    return json.dumps(case.arguments, separators=(",", ":"), ensure_ascii=True)


def case_line(case: FuzzCase) -> str:
    """``#12 invalid enum-miss: fail [RULES INV3] the agent accepted ...``"""
    what = f"{case.kind} {case.mutation}".strip()
    return printable(f"#{case.number} {what}: {case.grade} [RULES {case.rule}] {case.reason}")


def counts_line(report: FuzzReport) -> str:
    """How many cases of each kind passed, warned, failed."""
    parts = []
    for kind in CaseKind:
        graded = [c for c in report.cases if c.kind is kind]
        tally = ", ".join(f"{report.count(g, kind)} {g}" for g in Grade if report.count(g, kind))
        parts.append(f"{len(graded)} {kind} ({tally or 'none sent'})")
    return "; ".join(parts)


def render_fuzz_text(report: FuzzReport, *, colour: bool = False) -> str:
    """The whole report, ending with a newline."""
    settings = report.settings
    outcome = report.outcome
    lines = [
        f"sia-tui fuzz: skill {printable(report.skill)}, seed {settings.seed}, "
        f"{settings.examples} examples at most",
        f"outcome: {paint(outcome.upper(), _COLOURS[outcome], colour)}",
    ]
    if report.skipped:
        lines.append(f"nothing fuzzed: {printable(report.skipped)}")
    lines.append(f"cases: {counts_line(report)}")
    if report.refused_by_validator:
        lines.append(
            f"generated values the 2020-12 validator refused (not sent): "
            f"{report.refused_by_validator}"
        )
    if report.stopped:
        lines.append(f"stopped early: {printable(report.stopped)}")
    for case in report.failures:
        lines += [
            "",
            f"FAILURE ({case.finding or 'failed'}), shrunk to the smallest arguments:",
            f"  {case_line(case)}",
            f"  arguments: {arguments_text(case)}",
        ]
        if case.note:
            lines.append(f"  mutation: {printable(case.note)}")
    return "\n".join(lines) + "\n"
