"""The fuzz report as JSON (``fuzz --json``): every case, the failures, seed and bounds."""

from __future__ import annotations

from typing import Any

from sia_tui.core.fuzz.results import FuzzCase, FuzzReport

REPORT_FORMAT = "sia-fuzz/1"


def case_to_json(case: FuzzCase) -> dict[str, Any]:
    """One case as JSON."""
    return {
        "number": case.number,
        "kind": case.kind.value,
        "arguments": case.arguments,
        "grade": case.grade.value,
        "rule": case.rule,
        "reason": case.reason,
        "mutation": case.mutation or None,
        "note": case.note or None,
        "finding": case.finding.value if case.finding else None,
        "run": case.run_index,
        "invocation": case.invocation,
        "shrunk": case.shrunk,
    }


def fuzz_to_json(report: FuzzReport) -> dict[str, Any]:
    """The report's JSON: the corpus (every case's arguments) and the seed repeat a run."""
    settings = report.settings
    return {
        "format": REPORT_FORMAT,
        "target": report.learning.target.location,
        "skill": report.skill,
        "outcome": report.outcome.value,
        "seed": settings.seed,
        "examples": settings.examples,
        "max_time": settings.max_time,
        "rate": settings.rate,
        "skipped": report.skipped or None,
        "stopped": report.stopped or None,
        "refused_by_validator": report.refused_by_validator,
        "cases": [case_to_json(c) for c in report.cases],
        "failures": [c.number for c in report.failures],
    }
