"""The bug report of a session, built as one model (``blocks``): Markdown and HTML render it.

Everything a vendor needs to act without sia-tui: who is at fault (the same sentence the
TUI and ``check`` show), the exchanges whose bytes show the fault with their raw bodies, a
``curl`` command per exchange, the minimal request that reproduces the failing step, and
hints that name no sia-tui key or screen.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from sia_tui.core.bounded import listed
from sia_tui.core.bugreport.blocks import (
    Block,
    BugReport,
    Cell,
    Code,
    Facts,
    Paragraph,
    Section,
    Table,
    clean,
)
from sia_tui.core.bugreport.exchanges import curl_command, exchange_blocks
from sia_tui.core.bugreport.probes import probe_report, probe_section, probe_summary
from sia_tui.core.bugreport.trust import trust_section
from sia_tui.core.codes import describe_code
from sia_tui.core.engine.report_json import evidence_to_json
from sia_tui.core.engine.report_plain import plain_to_json
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.run.read_model import Invocation, Run, StepResult
from sia_tui.core.run.turns import UNVALIDATED
from sia_tui.core.run.verdicts import code_and_origin
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.invocations import pick_invocations


def build_report(session: LoadedSession, filename: str, number: int | None = None) -> BugReport:
    """The report of ``session`` (saved as ``filename``): every section, already redacted.

    Each invocation of the session is reported with its own verdict (``number``: only the
    invocation of that number, 1-based).
    """
    run = session.run
    chosen = pick_invocations(run, number)
    several = len(run.invocations) > 1
    skill = run.skill_id or run.target.skill_id or "(no skill)"
    probes = probe_report(session)
    verdicts = "; ".join(
        f"{each.label}: {each.run.verdict.headline}" if several else each.run.verdict.headline
        for each in chosen
    )
    summary = f"{skill} at {run.target.location}: {verdicts}"
    if probes is not None:
        # A `sia-tui probe --save` session: the probe outcome is its verdict (as `probe`
        # printed it), so it leads; the eleven steps were only the baseline.
        summary = f"{skill} at {run.target.location}: {probe_summary(probes)}; {verdicts}"
    titled = [(each.run, f" ({each.label})" if several else "") for each in chosen]
    sections = [_verdict(each, of) for each, of in titled if each.failed_step]
    if probes is not None:
        sections.append(probe_section(probes))
    sections.append(_environment(session))
    if several:
        sections.append(_invocations(run.invocations))
    for each, of in titled:
        sections.append(_steps(each, of))
        if each.plain is not None:
            sections.append(_plain(each, of))
        if each.turns:
            sections.append(_turns(each, of))
        if (unchecked := _unchecked(each, of)) is not None:
            sections.append(unchecked)
        if each.failed_step:
            sections.append(_failing_step(each, each.failed_step, of))
    sections.append(_digests(run))
    if (trust := trust_section(run)) is not None:
        sections.append(trust)
    for each, of in titled:
        if each.trace_id is not None:
            sections.append(_trace(each, of))
        sections.append(_located(each, of))
        sections.append(_wire(each, of))
        if each.failed_step:
            sections += [_exchanges(each, of), _reproduce(each, of)]
    sections.append(_rerun(session, filename, number))
    return BugReport(
        summary=clean(summary),
        warnings=[clean(w) for w in [*session.warnings, *run.warnings]],
        sections=sections,
    )


def _plain(run: Run, of: str = "") -> Section:
    """A plain A2A message (`sia-tui send`): what was sent, what the agent answered (the
    Task with its history, or the bare Message), and its exchanges."""
    report = plain_to_json(run)
    request = report["request"]
    facts = [
        ("part", request["part"]),
        ("mode", request["mode"]),
        ("task", request["task_id"] or "(a new task)"),
        ("sent", "yes" if report["sent"] else f"no: {report['held']}"),
        ("answer", report["answer"] or "none"),
    ]
    if report["error"] is not None:
        facts.append(("error", report["error"]["message"]))
    blocks: list[Block] = [Facts([(k, clean(str(v))) for k, v in facts])]
    blocks += _a2a_error_blocks(run)
    answer = report["task"] or report["message"]
    if answer is not None:
        blocks.append(Code(json.dumps(answer, indent=2, ensure_ascii=False), "json"))
    assert run.plain is not None
    made = set(run.plain.exchanges)
    blocks += exchange_blocks([ex for ex in run.exchanges if ex.seq in made])
    return Section(f"Plain A2A message{of}", blocks)


def _a2a_error_blocks(run: Run) -> list[Block]:
    """The agent's A2A error as data (every binding), when the run stopped on one."""
    error = run.answers.a2a_error
    if error is None:
        return []
    text = json.dumps({"a2a_error": error.to_json()}, indent=2, ensure_ascii=False)
    return [Paragraph("The agent answered an A2A error:"), Code(clean(text), "json")]


def _invocations(invocations: list[Invocation]) -> Section:
    """Every invocation of the session, each with its own verdict."""
    rows = []
    for each in invocations:
        failed, blame = each.run.failed_step, each.run.verdict.at_fault
        rows.append(
            [
                Cell(str(each.number)),
                Cell(each.run.verdict.outcome.label, tone=_outcome_tone(each.run)),
                Cell(str(failed.step) if failed else "—"),
                Cell(clean(code_and_origin(failed)) if failed else "—"),
                Cell(blame.party.value if blame else "—"),
                Cell("yes" if each.run.verdict.negative_test else "no"),
            ]
        )
    header = ["#", "outcome", "failed step", "code", "at fault", "negative test"]
    intro = Paragraph(
        "The session sent the skill more than once; each invocation has its own arguments, "
        "exchanges and verdict, reported one after the other below."
    )
    return Section("Invocations", [intro, Table(header, rows)])


def _outcome_tone(run: Run) -> str:
    return "failed" if run.failed_step else "passed"


def _verdict(run: Run, of: str = "") -> Section:
    failed = run.failed_step
    assert failed is not None
    blame = run.verdict.at_fault
    info = describe_code(failed.code) if failed.code else None
    items = [("found at", f"step {failed.step}, {failed.title} (RULES {failed.rule})")]
    if blame is not None:
        items.append(("at fault", blame.text))
    if failed.code:
        items.append(("code", code_and_origin(failed)))
    if failed.error_kind:
        items.append(("error", failed.error_kind))
    if info is not None:
        items.append(("meaning", info.meaning))
    if failed.hint:
        items.append(("what to do", failed.hint))
    return Section(f"Who is at fault{of}", [Facts([(k, clean(v)) for k, v in items])])


def _environment(session: LoadedSession) -> Section:
    env = [("sia-tui", str(session.tool.get("version", "?"))), ("saved", session.created)]
    env += [(k, str(v)) for k, v in session.environment.items() if k != "dependencies"]
    deps: Any = session.environment.get("dependencies", {})
    if isinstance(deps, dict):
        env += [(str(k), str(v)) for k, v in deps.items()]
    rows = [[Cell(clean(k)), Cell(clean(v))] for k, v in env]
    return Section("Environment", [Table(["component", "version"], rows)])


def _steps(run: Run, of: str = "") -> Section:
    from sia_tui.core.run.later_evidence import wire_note

    rows = [
        [
            Cell(str(s.step)),
            Cell(s.title),
            Cell(s.rule),
            Cell(s.status.value, tone=s.status.value),
            Cell(clean(s.code or "")),
            Cell(clean(_with_note(s.message, wire_note(s.evidence)))),
        ]
        for s in run.steps
    ]
    header = ["#", "step", "rule", "status", "code", "message"]
    return Section(f"Steps{of}", [Table(header, rows)])


def _with_note(message: str, note: str | None) -> str:
    return f"{message} (note: {note})" if note else message


def _turns(run: Run, of: str = "") -> Section:
    """The task's questions and the replies sent, in order (replies are unvalidated)."""
    rows = [
        [
            Cell(str(number)),
            Cell(turn.state, code=True),
            Cell(clean(turn.question)),
            Cell(clean(turn.reply_text()) if turn.answered else "(no reply: the task waits)"),
            Cell(turn.reply_kind or ""),
        ]
        for number, turn in enumerate(run.turns, 1)
    ]
    header = ["turn", "state", "the agent asks", "reply", "part"]
    note = Paragraph(f"Replies are {UNVALIDATED}.")
    return Section(f"Turns{of}", [Table(header, rows), note])


def _unchecked(run: Run, of: str = "") -> Section | None:
    """The artifacts the task sent that step 10 did not check (received before a cancel...),
    as every surface lists them (``Run.answers.unchecked_artifacts``)."""
    unchecked = run.answers.unchecked_artifacts
    if unchecked is None:
        return None
    shown, not_listed = listed(list(unchecked.artifacts))
    rows = [[Cell(clean(a.artifact_id), code=True), Cell(clean(a.name or ""))] for a in shown]
    blocks: list[Block] = [Paragraph(clean(unchecked.why)), Table(["artifact", "name"], rows)]
    if not_listed:
        blocks.append(Paragraph(f"... and {not_listed} more artifact(s), not checked."))
    return Section(f"Artifacts not checked{of}", blocks)


def _failing_step(run: Run, failed: StepResult, of: str = "") -> Section:
    blocks: list[Block] = [Paragraph(clean(failed.message))]
    blocks += _a2a_error_blocks(run)
    if failed.evidence is not None:
        text = json.dumps(evidence_to_json(failed.evidence), indent=2, ensure_ascii=False)
        blocks.append(Code(clean(text), "json"))
    return Section(f"Failing step {failed.step}: {failed.title} ({failed.rule}){of}", blocks)


def _digests(run: Run) -> Section:
    labels = {
        "advertised": "advertised (Agent Card)",
        "returned": "returned (describe_skill)",
        "computed": "computed (JCS + SHA-256)",
    }
    rows = [
        [
            Cell(labels[row.source.value]),
            Cell(clean(row.digest), code=True) if row.digest else Cell("—"),
            Cell(row.verdict or "—", tone=None if row.match is None else _tone(row.match)),
        ]
        for row in run.answers.digest_rows
    ]
    blocks: list[Block] = [Table(["source", "digest", "compared with the other two"], rows)]
    odd = run.answers.odd_one_out
    if odd is not None:
        blocks.append(Paragraph(f"The odd one out: {odd.statement} (RULES CP4)."))
    return Section("Interface digests", blocks)


def _trace(run: Run, of: str = "") -> Section:
    """The W3C trace id and each exchange's span: what the agent's vendor searches their
    own logs and traces for."""
    assert run.trace_id is not None
    intro = Paragraph(
        f"Every request of this run carried a W3C traceparent with trace id {run.trace_id} "
        "(one span per exchange): search the agent's logs and traces for it."
    )
    rows = [
        [Cell(str(ex.seq)), Cell(clean(ex.purpose)), Cell(clean(ex.span_id or ""), code=True)]
        for ex in run.exchanges
        if ex.span_id
    ]
    facts = Facts([("trace id", run.trace_id)])
    return Section(f"Trace{of}", [intro, facts, Table(["#", "exchange", "span id"], rows)])


def _tone(match: bool) -> str:
    return "match" if match else "differs"


def _located(run: Run, of: str = "") -> Section:
    everything = [(str(s.step), f) for s in run.steps for f in s.findings]
    everything += [(f"record {r.artifact.artifact_id}", f) for r in run.records for f in r.findings]
    if not everything:
        return Section(f"Located errors{of}", [Paragraph("None.")])
    findings, not_listed = listed(everything)
    header = ["step", "pointer", "rule", "code", "keyword", "expected", "actual", "message"]
    rows = [
        [
            Cell(clean(where)),
            Cell(clean(display(f.pointer)), code=True),
            Cell(clean(f.rule or "")),
            Cell(clean(f.code or "")),
            Cell(clean(f.keyword or "")),
            Cell(clean(f.expected or "")),
            Cell(clean(f.actual or "")),
            Cell(clean(f.message + (f" (line {f.line})" if f.line else ""))),
        ]
        for where, f in findings
    ]
    blocks: list[Block] = [Table(header, rows)]
    if not_listed:
        blocks.append(Paragraph(f"{not_listed} more located errors are not listed."))
    return Section(f"Located errors{of}", blocks)


def _wire(run: Run, of: str = "") -> Section:
    """Each A2A message against its revision's wire schema (``Run.answers.wire``, as ``check``
    shows it): the sentence a vendor reads first, then every issue at its pointer."""
    wire = run.answers.wire
    title = f"A2A wire conformance{of}"
    blocks: list[Block] = [Paragraph(clean(wire.summary))]
    issues = [(seq, i) for seq, verdict in wire.verdicts for i in verdict.issues]
    if issues:
        header = ["exchange", "message", "severity", "pointer", "kind", "field", "issue"]
        rows = [
            [
                Cell(f"#{seq}"),
                Cell(clean(issue.where)),
                Cell(issue.severity.value),
                Cell(clean(display(issue.pointer)), code=True),
                Cell(clean(issue.kind)),
                Cell(clean(issue.field or "")),
                Cell(clean(issue.message)),
            ]
            for seq, issue in issues
        ]
        blocks.append(Table(header, rows))
    more = sum(verdict.more for _, verdict in wire.verdicts)
    if more:
        blocks.append(Paragraph(f"{more} more wire issues are not listed."))
    return Section(title, blocks)


def _exchanges(run: Run, of: str = "") -> Section:
    shown = run.verdict.fault_exchanges
    if not shown:
        return Section(
            f"The exchange that shows it{of}",
            [Paragraph("No request was sent for this step: the problem was found here.")],
        )
    title = "The exchange that shows it" if len(shown) == 1 else "The exchanges that show it"
    return Section(title + of, exchange_blocks(shown))


def _reproduce(run: Run, of: str = "") -> Section:
    title = f"Minimal request that reproduces{of}"
    shown = run.verdict.fault_exchanges
    if not shown:
        return Section(title, [Paragraph("Nothing was sent.")])
    # The last request the failing step judged: the card GET for a card fault.
    return Section(title, [Code(curl_command(shown[-1]), "sh")])


def _rerun(session: LoadedSession, filename: str, number: int | None) -> Section:
    blocks: list[Block] = [Code(rerun_command(session, filename, number), "sh")]
    if session.redactions:
        blocks.append(
            Paragraph("Credentials were redacted from the session; supply them again as shown.")
        )
    need = session.run.answers.consent_need
    if need is not None:  # consent is the reader's to give, so the command does not carry it
        blocks.append(
            Paragraph(
                f"The skill may act ({need.reason}): rerun sends its invocation again only "
                f"with {RERUN_CONSENT}."
            )
        )
    anchors = session.run.target.anchors
    if anchors is not None and (anchors.keys or anchors.require_signature or anchors.lock):
        # A live rerun never trusts the session's anchors: the reader names their own.
        blocks.append(
            Paragraph(
                "The run was checked against trust anchors (trusted keys, a required "
                "signature or a contract lock). rerun checks the live agent only against "
                "your own: add --trusted-keys, --require-signature and --lock as you trust."
            )
        )
    return Section("Re-run it", blocks)


#: The rerun command's consent flag: the reader of a bug report runs `sia-tui rerun` in a
#: shell, so its flags are named whichever surface wrote the report.
RERUN_CONSENT = "--allow-execute"


def rerun_command(session: LoadedSession, filename: str, number: int | None = None) -> str:
    """The command that re-runs the session (its invocation ``number`` only, when given);
    redacted credentials become shell variables."""
    parts = ["sia-tui", "rerun", shlex.quote(filename)]
    if number is not None:
        parts += ["--invocation", str(number)]
    names = {hit.name for hit in session.redactions}
    if "authorization" in names:
        parts += ["--bearer", '"$TOKEN"']
    headers = session.options.get("headers", []) or []
    for pair in headers:
        header = pair[0] if isinstance(pair, list) and pair else None
        if isinstance(header, str) and header.lower() in names - {"authorization"}:
            safe = re.sub(r"[^A-Za-z0-9-]", "", header)
            parts += ["--header", f'"{safe}: $SECRET_{safe.upper().replace("-", "_")}"']
    return " ".join(parts)
