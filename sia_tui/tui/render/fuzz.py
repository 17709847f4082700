"""The Fuzz action's content on the Probe screen: one line per case, the selected case's
arguments and verdict, shown literally (the engine grades; this only colours)."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.fuzz import FuzzCase, FuzzOutcome, FuzzReport
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.render.probe import GRADE_LOOK


def case_prompt(case: FuzzCase, policy: DisplayPolicy) -> Content:
    """`` ✔ pass  #3 invalid enum-miss   INV3`` for the case list."""
    icon, colour = GRADE_LOOK[case.grade]
    what = f"#{case.number} {case.kind} {case.mutation}".strip()
    return Content.assemble(
        (f" {icon} ", f"bold {colour}"),
        (f"{case.grade.value:<5}", colour),
        policy.literal(f"{what:<25} ", style="bold" if case.shrunk else ""),
        policy.literal(case.rule, style="$text-muted"),
    )


def fuzz_summary(report: FuzzReport, policy: DisplayPolicy) -> Content:
    """Two lines above the list: what is fuzzed, the outcome and the tally."""
    settings = report.settings
    # While cases are sent, the next one may fail: no outcome yet but a failure's.
    final = report.ended or report.outcome is FuzzOutcome.FAILED
    outcome = report.outcome.value if final else "sending…"
    colour = {"passed": "$step-passed", "failed": "$step-failed", "sending…": "$accent"}.get(
        outcome, "$warning"
    )
    tally = [
        (f"  {report.count(g)} {g.value}", f"bold {GRADE_LOOK[g][1]}")
        for g in GRADE_LOOK
        if report.count(g)
    ]
    return Content.assemble(
        ("Fuzz ", "bold"),
        policy.literal(report.skill),
        (f"  {outcome}", f"bold {colour}") if report.cases or report.skipped else ("", ""),
        *tally,
        (
            f"\nseed {settings.seed}, {settings.examples} examples at most, "
            f"{settings.rate:g} a second; f fuzzes again",
            "$text-muted",
        ),
    )


def fuzz_overview(report: FuzzReport, policy: DisplayPolicy) -> Content:
    """Why nothing was sent, why the run stopped, or what the run is doing."""
    literal = policy.literal
    if report.skipped:
        return Content.styled("Nothing fuzzed: ", "bold $warning") + literal(report.skipped)
    lines = []
    if not report.learned:
        lines.append(Content.styled("Learning the interface (steps 1-6)…", "italic $accent"))
    elif not report.ended:
        lines.append(Content.styled(f"Sending: {len(report.cases)} cases so far…", "$accent"))
    if report.stopped:
        lines.append(Content.styled("Stopped early: ", "bold $warning") + literal(report.stopped))
    for case in report.failures:
        lines.append(
            Content.styled("Failure, shrunk to the smallest arguments: ", "bold $step-failed")
            + literal(f"#{case.number} {case.finding or ''}")
        )
    return Content("\n").join(lines)


def case_content(case: FuzzCase, policy: DisplayPolicy, *, limit: int | None) -> Content:
    """One case: the verdict and its rule, what was mutated, then the arguments sent."""
    literal = policy.literal
    icon, colour = GRADE_LOOK[case.grade]
    blocks = [
        Content.assemble(
            literal(
                f"{icon} #{case.number} {case.kind} {case.mutation}".strip(), style=f"bold {colour}"
            ),
            literal(f"  ({case.grade.value}; RULES {case.rule})", style="$text-muted"),
        ),
        literal(case.reason, multiline=True),
    ]
    if case.finding is not None:
        blocks.append(Content.styled("Finding ", "bold") + literal(case.finding.value))
    if case.note:
        blocks.append(Content.styled("Mutation ", "bold") + literal(case.note))
    if case.shrunk:
        blocks.append(
            Content.styled("The smallest failing arguments hypothesis found.", "$warning")
        )
    blocks.append(
        Content.styled(f"Arguments (invocation {case.invocation})", "bold underline")
        + Content("\n")
        + json_content(pretty_json(case.arguments), policy, limit=limit)
    )
    return Content("\n\n").join(blocks)
