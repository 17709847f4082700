"""The readable report of a run, for a terminal or to paste into an issue."""

from __future__ import annotations

import json

from sia_tui.core.codes import describe_code
from sia_tui.core.engine.model import Run, StepStatus
from sia_tui.core.printable import printable

_ICONS = {
    StepStatus.PASSED: "✔",
    StepStatus.FAILED: "✘",
    StepStatus.SKIPPED: "↷",
    StepStatus.NOT_RUN: "·",
    StepStatus.RUNNING: "…",
}
_COLOURS = {
    StepStatus.PASSED: "32",
    StepStatus.FAILED: "31",
    StepStatus.SKIPPED: "33",
    StepStatus.NOT_RUN: "2",
    StepStatus.RUNNING: "36",
}


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def _paint(text: str, colour: str, enabled: bool) -> str:
    return f"\x1b[{colour}m{text}\x1b[0m" if enabled else text


def render_text(run: Run, *, colour: bool = False) -> str:
    """Every step with its status, then the error, digests and task; agent text made inert."""
    lines = []
    agent = printable(run.card.name) if run.card else run.target.location
    iface = run.interface
    lines.append(f"sia-tui check: {printable(agent)}" + (f"  [{iface.badge}]" if iface else ""))
    if run.skill_id:
        lines.append(
            f"skill: {printable(run.skill_id)} {printable(run.skill_version or '')}"
            + ("  (document from cache)" if run.from_cache else "")
        )
    lines.append("")
    for step in run.steps:
        icon = _paint(_ICONS[step.status], _COLOURS[step.status], colour)
        status = _paint(f"{step.status.value:<8}", _COLOURS[step.status], colour)
        code = (
            f" [{printable(step.code)}, {step.origin.value if step.origin else 'local'}]"
            if step.code
            else ""
        )
        lines.append(f" {icon} {step.step:>2}. {step.title:<40} {status}{code}")
        if step.message and step.status in (StepStatus.PASSED, StepStatus.FAILED):
            lines.append(f"       {printable(step.message)}")
        if step.status is StepStatus.FAILED:
            for finding in step.findings[:10]:
                where = printable(finding.pointer or "/")
                rule = f" [{finding.rule}]" if finding.rule else ""
                lines.append(f"       - {where}: {printable(finding.message)}{rule}")
            if step.hint:
                lines.append(f"       next: {printable(step.hint)}")
            info = describe_code(step.code) if step.code else None
            if info:
                lines.append(f"       {step.code}: {info.meaning}")
    lines.append("")
    d = run.digests
    lines.append("digests:")
    lines.append(f"  advertised (card)      {printable(d.advertised or '-')}")
    lines.append(f"  returned (describe)    {printable(d.returned or '-')}")
    lines.append(f"  computed (here, JCS)   {d.computed or '-'}")
    if run.task:
        lines.append(f"task: {printable(run.task.id)} {run.task.state}")
    if run.result is not None and run.result.data_parts():
        text = json.dumps(run.result.data_parts()[0], ensure_ascii=False)
        lines.append(f"result {printable(run.result.artifact_id)}: {printable(_clip(text))}")
    for record in run.records:
        verdict = "valid" if record.valid else "INVALID"
        lines.append(
            f"record {printable(record.artifact.artifact_id)} "
            f"[{printable(record.kind or record.artifact.name or '?')}]: {verdict}"
        )
    for warning in run.warnings:
        lines.append(f"warning: {printable(warning)}")
    verdict = "PASSED" if run.outcome == "passed" else "FAILED"
    lines.append("")
    lines.append(_paint(f"outcome: {verdict}", "32" if verdict == "PASSED" else "31", colour))
    return "\n".join(lines) + "\n"
