"""The evidence of one step: outcome, draft code and meaning, origin, hint, findings, exchanges."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.content import Content

from sia_tui.core.codes import DetectedBy, describe_code
from sia_tui.core.engine import evidence_to_json
from sia_tui.core.findings import Finding
from sia_tui.core.jsonkit import display_pointer
from sia_tui.core.run import NextAction, Run, Step, StepResult, StepStatus
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.render.exchange import exchange_content
from sia_tui.tui.render.plain_a2a import lacks_extension, steps_do_not_apply
from sia_tui.tui.widgets.step_list import STATUS_LOOK

#: The key to press next, by the step's next action (``check`` names commands instead).
TUI_NEXT = {
    NextAction.SHOW_DIGESTS: "press 3 for the digest table",
    NextAction.SHOW_DOCUMENT: "press 4 for the document",
    NextAction.EDIT_ARGUMENTS: "press 5 to edit the arguments",
    NextAction.SHOW_RESULTS: "press 6 for the results",
    NextAction.SHOW_EXCHANGE: "read the exchange below (p: pretty/raw)",
    NextAction.CHOOSE_SKILL: "press 1 to pick an advertised skill",
    NextAction.RESTART: "press R to run again",
    NextAction.REPORT: "press ctrl+s to save the session for the vendor",
}


#: Statuses of a step that will not run in this run.
_ENDED = (StepStatus.FAILED, StepStatus.SKIPPED)


def step_content(
    run: Run, result: StepResult, policy: DisplayPolicy, *, pretty: bool, limit: int | None
) -> Content:
    """The whole evidence pane for ``result``."""
    literal = policy.literal
    icon, colour = STATUS_LOOK[result.status]
    # The title and rule of a recorded step are whatever its session file says.
    blocks: list[Content] = [
        Content.assemble(
            literal(f"{icon} Step {result.step}: {result.title}", style=f"bold {colour}"),
            literal(
                f"  ({result.rule}, {result.status.value.replace('_', ' ')})",
                style="$text-muted",
            ),
        )
    ]
    if result.message:
        blocks.append(literal(result.message, multiline=True))
    if result.step == run.next_step and run.verdict.waiting_for_consent:  # why step 8 sent nothing
        blocks.append(literal(run.verdict.summary, multiline=True, style="$warning"))
    if result.step >= Step.SKILL and result.status in _ENDED and lacks_extension(run):
        blocks.append(steps_do_not_apply())
    if result.code:
        info = describe_code(result.code)
        meaning = info.meaning if info else "not one of the draft's ten codes"
        origin = result.origin
        blocks.append(
            Content.assemble(
                ("code ", "bold"),
                literal(result.code, style="bold $error"),
                ("  origin ", "bold"),
                (origin.value if origin else "unknown", "bold $accent"),
                (
                    " (found here)"
                    if origin is DetectedBy.LOCAL
                    else " (reported by the agent)"
                    if origin is DetectedBy.REMOTE
                    else "",
                    "$text-muted",
                ),
            )
        )
        blocks.append(Content.styled(meaning, "italic"))
    if result.status is StepStatus.FAILED:
        blame = run.verdict.at_fault if run.failed_step is result else None
        if blame is not None:
            blocks.append(
                Content.assemble(
                    ("At fault: ", "bold $error"),
                    literal(blame.text, multiline=True),
                )
            )
        if result.error_kind:  # the named error: a size limit, a timeout, the deadline...
            blocks.append(Content.styled("Error: ", "bold") + literal(result.error_kind))
        known = describe_code(result.code) if result.code else None
        hint = result.hint or (known.hint if known else "")
        key = TUI_NEXT.get(result.next_action) if result.next_action else None
        if hint or key:
            blocks.append(
                Content.styled("What to do next: ", "bold $warning")
                + literal(hint)
                + Content.styled(f" ({key})" if key else "", "bold $accent")
            )
    if result.findings:
        blocks.append(Content.styled(f"Findings ({len(result.findings)})", "bold underline"))
        blocks.extend(finding_lines(result.findings, policy))
    evidence = _filled(evidence_to_json(result.evidence))
    if evidence:
        blocks.append(Content.styled("Evidence", "bold underline"))
        blocks.append(json_content(pretty_json(evidence), policy, limit=limit))
    seqs = set(result.exchanges)
    exchanges = [e for e in run.exchanges if e.seq in seqs]
    if exchanges:
        blocks.append(Content.styled(f"Exchanges ({len(exchanges)})", "bold underline"))
        for exchange in exchanges:
            blocks.append(exchange_content(exchange, policy, pretty=pretty, limit=limit))
    elif result.step in run.stream_steps:
        # SendStreamingMessage was sent here; its exchange is recorded when the stream ends.
        blocks.append(
            Content.styled(
                "The stream is open: its exchange is listed here when it closes.", "italic $accent"
            )
        )
    elif result.status is StepStatus.RUNNING:
        # The exchange is recorded when the answer arrives; until then it is in flight.
        blocks.append(Content.styled("waiting for the answer…", "italic $accent"))
    elif result.status is not StepStatus.NOT_RUN:
        blocks.append(Content.styled("No request was sent in this step.", "$text-muted"))
    return Content("\n\n").join(blocks)


def _filled(evidence: dict[str, Any] | None) -> dict[str, Any]:
    """The typed evidence without its empty members; empty when only its ``kind`` is left
    (a pane reading ``{"kind": "describe"}`` tells the user nothing)."""
    kept = {k: v for k, v in (evidence or {}).items() if v not in (None, "", [], {})}
    return kept if set(kept) - {"kind"} else {}


def finding_lines(findings: Iterable[Finding], policy: DisplayPolicy) -> list[Content]:
    """One line per finding: pointer, rule, message, and schema details when present."""
    literal = policy.literal
    lines = []
    for finding in findings:
        where = display_pointer(finding.pointer)
        detail = ""
        if finding.keyword:
            detail = f"  [{finding.keyword}: expected {finding.expected}, got {finding.actual}]"
        position = f" @{finding.line}:{finding.column}" if finding.line else ""
        lines.append(
            Content.assemble(
                (
                    f"• {finding.severity.value} ",
                    "bold $error" if finding.severity.value == "error" else "bold $warning",
                ),
                literal(where, style="$secondary"),
                (position, "$text-muted"),
                literal(f" {finding.rule}" if finding.rule else "", style="$accent"),
                " ",
                literal(finding.message),
                literal(detail, style="$text-muted"),
            )
        )
    return lines
