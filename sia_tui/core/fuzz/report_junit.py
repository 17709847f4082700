"""The fuzz report as a JUnit suite (``fuzz --junit``): one testcase per case sent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sia_tui.core.fuzz.report_text import arguments_text
from sia_tui.core.fuzz.results import FuzzCase, FuzzReport
from sia_tui.core.output.junit import CaseStatus, JUnitCase, JUnitSuite, write_junit
from sia_tui.core.run.refusal import Grade

_CASE_STATUS = {
    Grade.PASS: CaseStatus.PASSED,
    Grade.WARN: CaseStatus.PASSED,
    Grade.FAIL: CaseStatus.FAILED,
    Grade.SKIP: CaseStatus.SKIPPED,
}


def _case(case: FuzzCase, classname: str) -> JUnitCase:
    verdict = f"{case.grade}: {case.reason} [RULES {case.rule}]"
    return JUnitCase(
        name=f"#{case.number} {case.kind} {case.mutation}".strip(),
        classname=classname,
        status=_CASE_STATUS[case.grade],
        message=verdict if case.grade in (Grade.FAIL, Grade.SKIP) else "",
        text=f"arguments: {arguments_text(case)}" if case.grade is Grade.FAIL else "",
        kind=f"RULES {case.rule}" if case.grade is Grade.FAIL else "",
        system_out=verdict if case.grade is Grade.WARN else "",
    )


def write_fuzz_junit(
    path: Path, report: FuzzReport, redact: Callable[[str], str] | None = None
) -> None:
    """Write the JUnit report of ``report`` to ``path`` atomically."""
    classname = f"sia-tui.fuzz.{report.skill or 'skill'}"
    cases = tuple(_case(c, classname) for c in report.cases)
    if not cases:  # nothing sent is never a pass
        why = report.skipped or report.stopped or "no case was sent"
        cases = (JUnitCase("fuzz", classname, status=CaseStatus.ERROR, message=why),)
    properties = (
        ("target", report.learning.target.location),
        ("seed", str(report.settings.seed)),
        ("outcome", report.outcome.value),
    )
    suite = JUnitSuite(f"sia-tui fuzz {report.skill}", cases, properties=properties)
    write_junit(path, [suite], redact=redact)
