"""The readable report of a run (`sia-tui check`), for a terminal or to paste into an issue."""

from __future__ import annotations

import json
from collections.abc import Callable

from sia_tui.core.bounded import listed
from sia_tui.core.codes import DetectedBy, describe_code
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.needs import Need, word
from sia_tui.core.output.policy import paint, printable
from sia_tui.core.run.evidence import NextAction
from sia_tui.core.run.read_model import Run, StepResult, StepStatus

_ICONS = {
    StepStatus.PASSED: "✔",
    StepStatus.FAILED: "✘",
    StepStatus.SKIPPED: "↷",
    StepStatus.NOT_RUN: "·",
    StepStatus.RUNNING: "…",
    StepStatus.CANCELLED: "⊗",
}
_COLOURS = {
    StepStatus.PASSED: "32",
    StepStatus.FAILED: "31",
    StepStatus.SKIPPED: "33",
    StepStatus.NOT_RUN: "2",
    StepStatus.RUNNING: "36",
    StepStatus.CANCELLED: "33",
}
#: What to run next, by the step's next action (the TUI names its keys instead); each is
#: worded when the report is rendered, in the words of the surface that runs (core/needs).
CLI_NEXT: dict[NextAction, Callable[[], str]] = {
    NextAction.SHOW_DIGESTS: lambda: (
        "the three digests are listed below; `sia-tui open CARD`, then 3, shows the digest table"
    ),
    NextAction.SHOW_DOCUMENT: lambda: "`sia-tui open CARD`, then 4, shows the document",
    NextAction.EDIT_ARGUMENTS: lambda: (
        f"fix the file given to {word(Need.ARGUMENTS)}, try "
        f"{word(Need.ARGUMENTS_EXAMPLE)}, or add {word(Need.SEND_ANYWAY)} to send invalid "
        "arguments as a negative test"
    ),
    NextAction.SHOW_RESULTS: lambda: (
        f"{word(Need.JSON_REPORT)} lists the task error and its "
        "details; `sia-tui open CARD`, then 6, shows the results"
    ),
    NextAction.SHOW_EXCHANGE: lambda: (
        f"add {word(Need.SAVE)}, then `sia-tui report FILE` shows the exchange"
    ),
    NextAction.CHOOSE_SKILL: lambda: f"pass {word(Need.SKILL)} with one of the advertised skills",
    NextAction.RESTART: lambda: "run the same check again later",
    NextAction.REPORT: lambda: (
        f"add {word(Need.SAVE)} and send `sia-tui report FILE` to the agent's vendor"
    ),
}
_OUTCOME_COLOUR = {"passed": "32", "negative_test_passed": "32", "failed": "31"}


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def render_text(run: Run, *, colour: bool = False, how_to_reply: str = "") -> str:
    """Every step with its status, then the digests, task and outcome; agent text inert.
    ``how_to_reply``: how the reader answers a question the task asks (``turn_lines``)."""
    from sia_tui.core.run.later_evidence import wire_note  # as the steps' evidence: lazily

    lines = []
    agent = printable(run.card.name) if run.card else run.target.location
    iface = run.interface
    lines.append(f"sia-tui check: {printable(agent)}" + (f"  [{iface.badge}]" if iface else ""))
    if run.skill_id:
        lines.append(
            f"skill: {printable(run.skill_id)} {printable(run.skill_version or '')}"
            + ("  (document from the cache: describe_skill not called)" if run.from_cache else "")
        )
    lines += _auth_lines(run)
    lines.append("")
    for step in run.steps:
        icon = paint(_ICONS[step.status], _COLOURS[step.status], colour)
        status = paint(f"{step.status.value:<9}", _COLOURS[step.status], colour)
        code = f" [{printable(step.code)}, {step.origin or DetectedBy.LOCAL}]" if step.code else ""
        lines.append(f" {icon} {step.step:>2}. {step.title:<40} {status}{code}")
        shown = (StepStatus.PASSED, StepStatus.FAILED, StepStatus.CANCELLED)
        if step.message and step.status in shown:
            lines.append(f"       {printable(step.message)}")
        if (note := wire_note(step.evidence)) is not None:
            lines.append(f"       note: {printable(note)}")
        if step.status is StepStatus.FAILED:
            lines += _failure_lines(step)
    lines.append("")
    lines.append("digests:")
    labels = {"advertised": "advertised (card)   ", "returned": "returned (describe) "}
    for row in run.answers.digest_rows:
        label = labels.get(row.source.value, "computed (here, JCS)")
        verdict = f"  {row.verdict}" if row.verdict else ""
        lines.append(f"  {label}  {printable(row.digest or '-')}{verdict}")
    lines += _trust_lines(run)
    if run.task:
        lines.append(f"task: {printable(run.task.id)} {run.task.state}")
    if run.turns:  # the turns load with the first question a task asks
        from sia_tui.core.run.turns import turn_lines

        lines += [printable(line) for line in turn_lines(run.turns, how_to_reply=how_to_reply)]
    if run.result is not None and run.answers.result_value is not None:
        text = json.dumps(run.answers.result_value, ensure_ascii=False)
        judged = run.answers.result_verdict
        mark = "" if judged is None else ("  valid" if judged.valid else "  INVALID")
        lines.append(f"result {printable(run.result.artifact_id)}{mark}: {printable(_clip(text))}")
    records, not_listed = listed(run.answers.record_verdicts)
    for record in records:
        lines.append(
            f"record {printable(record.artifact.artifact_id)} "
            f"[{printable(record.kind or record.artifact.name or '?')}]: "
            + ("valid" if record.valid else "INVALID")
        )
    if not_listed:
        invalid = sum(not r.valid for r in run.answers.record_verdicts[len(records) :])
        lines.append(f"... and {not_listed} more record(s), {invalid} of them INVALID")
    lines += _unchecked_lines(run)
    lines += _push_lines(run)
    lines += _trace_lines(run)
    for warning in run.warnings:
        lines.append(f"warning: {printable(warning)}")
    lines += [printable(line) for line in run.answers.wire.lines()]
    lines.append("")
    lines.append(
        paint(
            f"outcome: {printable(run.verdict.headline)}",
            _OUTCOME_COLOUR.get(run.verdict.outcome.value, "33"),
            colour,
        )
    )
    return "\n".join(lines) + "\n"


#: The most exchange spans ``check`` lists (a long poll makes a hundred); --json has all.
MAX_SPANS_SHOWN = 12


def _trace_lines(run: Run) -> list[str]:
    """The run's W3C trace id and each exchange's span: what the agent's vendor searches
    their logs for."""
    if run.trace_id is None:
        return []
    spans = [ex for ex in run.exchanges if ex.span_id]
    lines = [f"trace: {printable(run.trace_id)}  (W3C traceparent on {len(spans)} exchange(s))"]
    for ex in spans[:MAX_SPANS_SHOWN]:
        lines.append(f"  #{ex.seq:<3} span {printable(ex.span_id or '')}  {printable(ex.purpose)}")
    if len(spans) > MAX_SPANS_SHOWN:
        lines.append(f"  ... and {len(spans) - MAX_SPANS_SHOWN} more span(s)")
    return lines


def _auth_lines(run: Run) -> list[str]:
    """What the skill requires and what sia-tui sends, when the card declares any security."""
    plan = run.answers.auth_plan
    if plan is None or run.card is None or not (plan.declared or run.card.schemes):
        return []
    lines = [f"auth: requires {printable(plan.requires)}", f"      sends {printable(plan.sends)}"]
    if plan.missing:
        lines.append(f"      {printable(plan.missing)}")
    return lines


def _failure_lines(step: StepResult) -> list[str]:
    """A failed step's located findings, what to do next, and its code's meaning."""
    lines = []
    for finding in step.findings[:10]:
        rule = f" [{finding.rule}]" if finding.rule else ""
        lines.append(
            f"       - {printable(display(finding.pointer))}: {printable(finding.message)}{rule}"
        )
    if len(step.findings) > 10:
        lines.append(f"       ... {len(step.findings) - 10} more finding(s)")
    if step.error_kind:
        lines.append(f"       error: {step.error_kind}")
    if step.hint or step.next_action:
        where = CLI_NEXT[step.next_action]() if step.next_action else None
        lines.append("       next: " + printable(step.hint) + (f" ({where})" if where else ""))
    info = describe_code(step.code) if step.code else None
    if info:
        lines.append(f"       {step.code}: {info.meaning}")
    return lines


def _trust_lines(run: Run) -> list[str]:
    """Each card signature's verdict and the contract lock (docs/TRUST.md), when present."""
    lines = []
    signatures = run.answers.card_signatures
    if signatures:
        lines.append("card signatures:")
        lines += [f"  {printable(check.summary)}" for check in signatures]
    lock = run.answers.lock
    if lock is not None:
        lines.append(f"contract lock: {printable(lock.summary)}")
        for change in lock.changes[:10]:
            lines.append(
                f"  {change.impact:<10} {printable(display(change.pointer))}: "
                f"{printable(change.reason)}"
            )
        if len(lock.changes) > 10:
            lines.append(f"  ... {len(lock.changes) - 10} more change(s)")
    return lines


def _push_lines(run: Run) -> list[str]:
    """The push timeline beside the mode's own events: each delivery, or why there is none."""
    log = run.push
    if log is None:
        return []
    from sia_tui.core.engine.push import delivery_line  # loaded by a run with push

    lines = [f"push ({log.receiver}): {printable(log.note)}"]
    wire = dict(run.answers.wire.pushes)
    lines += [f"  {printable(delivery_line(d, wire.get(d.number)))}" for d in log.deliveries]
    if log.not_listed:
        lines.append(f"  ... and {log.not_listed} more deliver(ies), not kept")
    lines += [f"  {printable(delivery_line(d))}" for d in log.refused]
    if log.refused_count > len(log.refused):
        lines.append(f"  ... and {log.refused_count - len(log.refused)} more refused, not kept")
    return lines


def _unchecked_lines(run: Run) -> list[str]:
    """The artifacts step 10 did not check (received before a cancel...), marked so."""
    unchecked = run.answers.unchecked_artifacts
    if unchecked is None:
        return []
    shown, not_listed = listed(list(unchecked.artifacts))
    lines = [f"artifacts not checked: {unchecked.why}"]
    lines += [
        f"  artifact {printable(a.artifact_id)} [{printable(a.name or '?')}]: not checked"
        for a in shown
    ]
    if not_listed:
        lines.append(f"  ... and {not_listed} more artifact(s), not checked")
    return lines
