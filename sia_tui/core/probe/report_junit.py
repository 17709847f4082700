"""The probe report as a JUnit suite (``probe --junit``): one testcase per probe.

It reads the typed :class:`ProbeReport`; it decides no grade.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sia_tui.core.output.junit import CaseStatus, JUnitCase, JUnitSuite, write_junit
from sia_tui.core.probe.results import Grade, ProbeReport, ProbeResult

_CASE_STATUS = {
    Grade.PASS: CaseStatus.PASSED,
    Grade.WARN: CaseStatus.PASSED,  # a warning is not a failure: it goes to system-out
    Grade.FAIL: CaseStatus.FAILED,
    Grade.SKIP: CaseStatus.SKIPPED,
}


def _case(report: ProbeReport, result: ProbeResult, classname: str) -> JUnitCase:
    seqs = set(result.exchanges)
    elapsed = sum(e.elapsed_ms for e in report.exchanges if e.seq in seqs) / 1000.0
    verdict = f"{result.grade.value}: {result.reason} [RULES {result.rule}, {result.draft}]"
    detail = ""
    if result.grade is Grade.FAIL:
        lines = [
            f"expected: {result.expected}",
            f"should have answered: {result.should_have}",
            f"exchanges: {', '.join(f'#{s}' for s in result.exchanges)}",
        ]
        if result.sent is not None:
            lines.insert(0, f"sent: {result.sent.note}")
        detail = "\n".join(lines)
    return JUnitCase(
        name=f"{result.id} ({result.rule}): {result.title}",
        classname=classname,
        status=_CASE_STATUS[result.grade],
        time=max(elapsed, 0.0),
        message=verdict if result.grade in (Grade.FAIL, Grade.SKIP) else "",
        text=detail,
        kind=f"RULES {result.rule}" if result.grade is Grade.FAIL else "",
        system_out=verdict if result.grade is Grade.WARN else "",
    )


def junit_suites(report: ProbeReport) -> list[JUnitSuite]:
    """One suite, one testcase per probe: fail a failure, warn system-out, skip skipped."""
    run = report.learning
    skill = run.skill_id or run.target.skill_id or "skill"
    classname = f"sia-tui.probe.{skill}"
    properties = (
        ("draft", report.draft),
        ("target", run.target.location),
        ("outcome", report.outcome),
    )
    cases = tuple(_case(report, result, classname) for result in report.results)
    if not report.learned:  # one failed case says why no probe ran (exit status 3)
        failed = run.failed_step
        why = failed.message if failed else "steps 1-6 did not all pass"
        cases = (
            JUnitCase(
                name="learn the interface (the eleven steps)",
                classname=classname,
                status=CaseStatus.ERROR,
                message=why,
                kind=str(failed.code) if failed and failed.code else "",
            ),
        )
    return [JUnitSuite(f"sia-tui probe {skill}", cases, properties=properties)]


def write_probe_junit(
    path: Path, report: ProbeReport, redact: Callable[[str], str] | None = None
) -> None:
    """Write the JUnit report of ``report`` to ``path`` atomically (``probe --junit``),
    every text through ``redact`` (the command's redactor)."""
    write_junit(path, junit_suites(report), redact=redact)
