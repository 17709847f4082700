"""The readable probe report for a terminal: one line per probe, failures explained."""

from __future__ import annotations

from sia_tui.core.codes import DetectedBy
from sia_tui.core.output.printable import paint, printable
from sia_tui.core.probe.results import Grade, Observation, ProbeReport, ProbeResult

#: Icon and ANSI colour per grade (the TUI has its own, from the theme).
GRADE_LOOK = {
    Grade.PASS: ("✔", "32"),
    Grade.FAIL: ("✘", "31"),
    Grade.WARN: ("!", "33"),
    Grade.SKIP: ("⊘", "2"),
}


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def observed_line(observed: Observation) -> str:
    """What came back, in one line (agent text made inert)."""
    parts = [observed.answer.value.replace("_", " ")]
    if observed.state:
        parts.append(observed.state)
    if observed.code:
        parts.append(str(observed.code))
    if observed.http_status is not None:
        parts.append(f"HTTP {observed.http_status}")
    text = ", ".join(parts)
    said = observed.message or observed.error
    return text + (f": {printable(_clip(said))}" if said else "")


def _detail(result: ProbeResult) -> list[str]:
    lines = []
    if result.sent is not None:
        lines.append(f"sent: {printable(result.sent.note)}")
    lines.append(f"expected: {result.expected}")
    if result.observed is not None:
        lines.append(f"observed: {observed_line(result.observed)}")
        if result.observed.cancel:
            lines.append(f"the task it left running: {printable(result.observed.cancel)}")
    if result.should_have:
        lines.append(f"should have answered: {result.should_have}")
    if result.exchanges:
        lines.append("exchanges: " + ", ".join(f"#{s}" for s in result.exchanges))
    return lines


def _learning(report: ProbeReport) -> list[str]:
    run = report.learning
    failed = run.failed_step
    if failed is not None:
        origin = failed.origin or DetectedBy.LOCAL
        code = f" [{printable(failed.code)}, {origin}]" if failed.code else ""
        lines = [
            f"{report.why_not_probed}: step {failed.step} ({failed.title}) failed{code}",
            f"  {printable(failed.message)}",
        ]
        if failed.hint:
            lines.append(f"  next: {printable(failed.hint)}")
        lines.append("  `sia-tui check` shows every step; no probe was sent")
        return lines
    if not report.learned:
        return ["could not learn the interface: steps 1-6 did not all pass; no probe was sent"]
    source = {"file": "the arguments given", "example": "the input schema's example"}.get(
        report.arguments_source or "", "the input schema's skeleton"
    )
    if report.baseline_skipped:
        return [
            "learned: steps 1-6 passed; valid baseline (steps 7-11) not run: "
            + printable(report.baseline_skipped)
        ]
    return [f"learned: steps 1-11 passed (valid baseline: {source})"]


def render_probe_text(report: ProbeReport, *, colour: bool = False) -> str:
    """Every probe with its grade, RULES id and reason; failures with what should have come."""
    run = report.learning
    agent = printable(run.card.name) if run.card else printable(run.target.location)
    iface = f"  [{run.interface.badge}]" if run.interface else ""
    skill = printable(f"{run.skill_id or run.target.skill_id or '?'} {run.skill_version or ''}")
    lines = [
        f"sia-tui probe: {agent}{iface}",
        f"skill: {skill.strip()}, judged against {report.draft}",
        *_learning(report),
        "",
    ]
    for result in report.results:
        icon, tint = GRADE_LOOK[result.grade]
        label = paint(f"{icon} {result.grade.value:<4}", tint, colour)
        lines.append(f" {label}  {result.id:<26} {result.rule:<5} {printable(result.reason)}")
        if result.grade in (Grade.FAIL, Grade.WARN):
            lines.extend(f"{'':10}{line}" for line in _detail(result))
    for warning in run.warnings:
        lines.append(f"warning: {printable(warning)}")
    if report.learned:
        counts = ", ".join(f"{report.count(g)} {g.value}" for g in Grade)
        lines += ["", f"summary: {counts}"]
    verdict = {"passed": "PASSED", "failed": "FAILED"}.get(report.outcome, "NOT RUN")
    lines.append(paint(f"outcome: {verdict}", "32" if verdict == "PASSED" else "31", colour))
    return "\n".join(lines) + "\n"
