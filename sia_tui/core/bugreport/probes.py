"""The probe part of a session's bug report: one row per recorded probe, failures explained.

It reads the typed probe record of the session (``report_from_session``) and shows its
grades as recorded; it grades nothing itself (``sia-tui replay`` re-grades with today's rules).
"""

from __future__ import annotations

from sia_tui.core import limits
from sia_tui.core.bounded import listed
from sia_tui.core.bugreport.blocks import Block, Cell, Facts, Paragraph, Section, Table, clean
from sia_tui.core.bugreport.exchanges import exchange_blocks
from sia_tui.core.exchange import Exchange
from sia_tui.core.probe.report_text import observed_line
from sia_tui.core.probe.results import Grade, ProbeReport, ProbeResult
from sia_tui.core.probe.session import report_from_session
from sia_tui.core.session.format import LoadedSession

#: The report's tone per grade (a colour in HTML, a mark in Markdown).
GRADE_TONE = {
    Grade.PASS: "passed",
    Grade.FAIL: "failed",
    Grade.WARN: "warned",
    Grade.SKIP: "skipped",
}


def probe_report(session: LoadedSession) -> ProbeReport | None:
    """The recorded probe run of ``session``, or None for a plain check session."""
    return report_from_session(session) if session.probe is not None else None


def probe_summary(report: ProbeReport) -> str:
    """``probes: 1 fail, 9 pass, 0 warn, 2 skip`` (the recorded grades)."""
    counts = ", ".join(f"{report.count(g)} {g.value}" for g in Grade)
    return f"probes {report.outcome.replace('_', ' ')} ({counts})"


def _row(result: ProbeResult) -> list[Cell]:
    observed = observed_line(result.observed) if result.observed is not None else "not sent"
    return [
        Cell(result.id, code=True),
        Cell(result.rule),
        Cell(clean(result.expected)),
        Cell(clean(observed)),
        Cell(result.grade.value, tone=GRADE_TONE[result.grade]),
        Cell(clean(result.reason)),
    ]


def _failure(result: ProbeResult, exchanges: dict[int, Exchange], quoted: set[int]) -> list[Block]:
    """One failed probe explained; each exchange is quoted once in the whole section."""
    items = [("probe", f"{result.id} (RULES {result.rule}): {result.title}")]
    if result.sent is not None and result.sent.note:
        items.append(("sent", result.sent.note))
    items += [("why it failed", result.reason), ("should have answered", result.should_have)]
    if result.observed is not None and result.observed.cancel:
        items.append(("the task it left running", result.observed.cancel))
    if result.exchanges:
        items.append(
            (
                "exchanges",
                ", ".join(f"#{s}" + (" (above)" if s in quoted else "") for s in result.exchanges),
            )
        )
    shown = [exchanges[s] for s in dict.fromkeys(result.exchanges) if s in exchanges]
    fresh = [e for e in shown if e.seq not in quoted]
    quoted.update(e.seq for e in fresh)
    return [Facts([(label, clean(text)) for label, text in items]), *exchange_blocks(fresh)]


def probe_section(report: ProbeReport) -> Section:
    """The recorded probes: a table of every grade, then each failure with the answer due.

    Bounded whatever the session holds (24,500 results made a 293 MB page): the table lists
    ``limits.MAX_LISTED`` probes, the first ``limits.MAX_EXPLAINED`` failures are explained,
    and each exchange is quoted once; the rest are counted.
    """
    blocks: list[Block] = [
        Paragraph(
            f"{probe_summary(report)}, judged against {report.draft}; each verdict names its "
            "RULES id. sia-tui replay re-grades the recorded answers with today's rules.",
            strong=report.outcome == "failed",
        )
    ]
    if report.baseline_skipped:
        blocks.append(Paragraph(clean(f"Valid baseline not run: {report.baseline_skipped}")))
    if report.results:
        header = ["probe", "rule", "expected", "observed", "grade", "reason"]
        rows, not_listed = listed(report.results)
        blocks.append(Table(header, [_row(r) for r in rows]))
        if not_listed:
            blocks.append(Paragraph(f"{not_listed} more probes are not listed (counted above)."))
    else:
        blocks.append(Paragraph("No probe was sent: the interface could not be learned."))
    failures = [r for r in report.results if r.grade is Grade.FAIL]
    exchanges = {e.seq: e for e in report.all_exchanges()}
    quoted: set[int] = set()
    for result in failures[: limits.MAX_EXPLAINED]:
        blocks += _failure(result, exchanges, quoted)
    if len(failures) > limits.MAX_EXPLAINED:
        more = len(failures) - limits.MAX_EXPLAINED
        blocks.append(
            Paragraph(f"{more} more failed probes are not explained here: the table grades them.")
        )
    return Section("Probes", blocks)
