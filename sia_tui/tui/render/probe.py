"""The Probe screen's content: one line per probe, and the evidence of the selected one."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.probe import Grade, PlannedProbe, ProbeReport, ProbeResult, observed_line
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.render.exchange import exchange_content

#: Icon and theme variable per grade (the engine grades; this only colours).
GRADE_LOOK: dict[Grade, tuple[str, str]] = {
    Grade.PASS: ("✔", "$step-passed"),
    Grade.FAIL: ("✘", "$step-failed"),
    Grade.WARN: ("!", "$warning"),
    Grade.SKIP: ("⊘", "$step-skipped"),
}


def result_prompt(result: ProbeResult, policy: DisplayPolicy) -> Content:
    """`` ✔ pass  stale-digest     INV2`` for the probe list (a recorded session's ids and
    rules are whatever its file says)."""
    icon, colour = GRADE_LOOK[result.grade]
    return Content.assemble(
        (f" {icon} ", f"bold {colour}"),
        (f"{result.grade.value:<5}", colour),
        policy.literal(f"{result.id:<25}", style="bold" if result.grade is Grade.FAIL else ""),
        policy.literal(result.rule, style="$text-muted"),
    )


def pending_prompt(planned: PlannedProbe) -> Content:
    """A probe planned but not answered yet."""
    return Content.assemble((" … ", "bold $step-running"), (f"{'':<5}{planned.kind.value}", ""))


def summary_content(
    report: ProbeReport | None, skill: str | None, policy: DisplayPolicy
) -> Content:
    """Two lines above the list: what is probed and the tally; the draft judged against."""
    literal = policy.literal
    if report is None:
        what = literal(skill) if skill else Content("no skill selected")
        return Content.assemble(("Probe ", "bold"), what, ("  (p runs the probes)", "$text-muted"))
    run = report.learning
    tally = [
        (f"  {report.count(g)} {g.value}", f"bold {GRADE_LOOK[g][1]}" if report.count(g) else "")
        for g in Grade
    ]
    return Content.assemble(
        ("Probe ", "bold"),
        literal(f"{run.skill_id or skill or '?'} {run.skill_version or ''}".strip()),
        *(tally if report.results else []),
        (f"\njudged against {report.draft}; each verdict names its RULES id", "$text-muted"),
    )


def learning_content(report: ProbeReport, policy: DisplayPolicy) -> Content:
    """How the interface was learned, or why it could not be (nothing is probed then)."""
    literal = policy.literal
    failed = report.learning.failed_step
    if failed is not None:
        return Content.assemble(
            literal(
                f"{report.why_not_probed.capitalize()}: step {failed.step} ({failed.title}) "
                "failed. ",
                style="bold $error",
            ),
            literal(failed.message, multiline=True),
            ("\nNo probe was sent; the Steps screen (2) shows why.", "$text-muted"),
        )
    if not report.learned:
        return Content.styled("Learning the interface (steps 1-6)…", "italic $accent")
    if report.baseline_skipped:
        return Content.assemble(
            ("Steps 1-6 passed; the valid baseline (7-11) did not run: ", "$text-muted"),
            literal(report.baseline_skipped),
        )
    return Content.styled("Steps 1-11 passed: the agent accepts a valid invocation.", "$text-muted")


def result_content(
    report: ProbeReport, result: ProbeResult, policy: DisplayPolicy, *, limit: int | None
) -> Content:
    """One probe: the verdict and its rule, expected vs observed, then what was sent and the
    exchanges (the verdict first: the request can be kilobytes long)."""
    literal = policy.literal
    icon, colour = GRADE_LOOK[result.grade]
    blocks = [
        Content.assemble(
            literal(f"{icon} {result.id}: {result.title}", style=f"bold {colour}"),
            literal(
                f"  ({result.grade.value}; RULES {result.rule}; {result.draft})",
                style="$text-muted",
            ),
        ),
        literal(result.reason, multiline=True),
    ]
    blocks.append(Content.assemble(("Expected ", "bold"), literal(result.expected)))
    if result.observed is not None:
        blocks.append(Content.styled("Observed ", "bold") + literal(observed_line(result.observed)))
        if result.observed.details:
            blocks.append(json_content(pretty_json(result.observed.details), policy, limit=limit))
        for note in result.observed.notes:
            blocks.append(Content.styled("• ", "$warning") + literal(note))
        if result.observed.cancel:
            blocks.append(
                Content.styled("The task it left running: ", "bold $warning")
                + literal(result.observed.cancel)
            )
    if result.should_have:
        blocks.append(
            Content.styled("It should have answered: ", "bold $warning")
            + literal(result.should_have, multiline=True)
        )
    if result.sent is not None:
        credentials = "" if result.sent.credentials else " (no credentials)"
        blocks.append(
            Content.assemble(("Sent", "bold underline"), (credentials, "$warning"))
            + Content("\n")
            + literal(result.sent.note, multiline=True)
            + Content("\n")
            + json_content(pretty_json(result.sent.data), policy, limit=limit)
        )
    seqs = set(result.exchanges)
    exchanges = [e for e in report.all_exchanges() if e.seq in seqs]
    if exchanges:
        blocks.append(Content.styled(f"Exchanges ({len(exchanges)})", "bold underline"))
        blocks += [exchange_content(e, policy, pretty=True, limit=limit) for e in exchanges]
    return Content("\n\n").join(blocks)
