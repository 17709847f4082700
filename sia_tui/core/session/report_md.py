"""A Markdown bug report of a session, ready to paste into a GitHub issue."""

from __future__ import annotations

import re

from sia_tui.core.pointer import display
from sia_tui.core.session.facts import ReportFacts, evidence_text, gather
from sia_tui.core.session.format import LoadedSession

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~!])")
_MARK = {True: "✅ match", False: "❌ differs", None: "—"}


def md_text(text: str) -> str:
    """Agent text as inert Markdown: specials escaped, one line (for tables and prose)."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\r", " ").replace("\n", " ")


def md_code(text: str, language: str = "") -> str:
    """A fenced block whose fence is longer than any backtick run inside ``text``."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def md_span(text: str) -> str:
    """An inline code span (no escapes apply inside one, so the fence grows instead)."""
    # GFM tables split on "|" even inside code spans; "\|" is the escape GFM defines there.
    text = text.replace("\r", " ").replace("\n", " ").replace("|", "\\|")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    tick = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{tick}{pad}{text}{pad}{tick}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render_markdown(session: LoadedSession, filename: str) -> str:
    """The report: summary, environment, steps, failing step, digests, errors, reproduction."""
    facts: ReportFacts = gather(session, filename)
    out = ["# sia-tui session report", "", f"**{md_text(facts.summary)}**", ""]
    if facts.warnings:
        out += ["> [!WARNING]"] + [f"> {md_text(w)}" for w in facts.warnings] + [""]
    out += ["## Environment", ""]
    out += _table(
        ["component", "version"], [[md_text(k), md_text(v)] for k, v in facts.environment]
    )
    out += ["", "## Steps", ""]
    out += _table(
        ["#", "step", "rule", "status", "code", "message"],
        [
            [
                str(s.step),
                md_text(s.title),
                s.rule,
                s.status.value,
                md_text(s.code or ""),
                md_text(s.message),
            ]
            for s in facts.steps
        ],
    )
    if facts.failed:
        f = facts.failed
        out += [
            "",
            f"## Failing step {f.step}: {md_text(f.title)} ({f.rule})",
            "",
            f"- code: {md_span(f.code or 'none')} ({f.origin or 'local'})",
            f"- message: {md_text(f.message)}",
        ]
        if f.hint:
            out.append(f"- next: {md_text(f.hint)}")
        out += ["", "Evidence:", "", md_code(evidence_text(f), "json")]
    out += ["", "## Interface digests", ""]
    out += _table(
        ["source", "digest", "vs advertised"],
        [
            [r.source, md_span(r.value) if r.value else "—", _MARK[r.matches_advertised]]
            for r in facts.digests
        ],
    )
    out += ["", "## Located errors", ""]
    if facts.findings:
        out += _table(
            ["step", "pointer", "rule", "code", "keyword", "expected", "actual", "message"],
            [
                [
                    str(step) if step else "record",
                    md_span(display(f.pointer)),
                    md_text(f.rule or ""),
                    md_text(f.code or ""),
                    md_text(f.keyword or ""),
                    md_text(f.expected or ""),
                    md_text(f.actual or ""),
                    md_text(f.message + (f" (line {f.line})" if f.line else "")),
                ]
                for step, f in facts.findings
            ],
        )
    else:
        out.append("None.")
    out += ["", "## Minimal request that reproduces", ""]
    if facts.repro:
        r = facts.repro
        head = "\n".join([f"{r.method} {r.url}", *(f"{k}: {v}" for k, v in r.headers)])
        out += [md_code(head, "http"), "", md_code(r.body or "(empty body)", "json")]
    else:
        out.append("No request was recorded.")
    out += [
        "",
        "## Re-run it",
        "",
        md_code(facts.rerun_command, "sh"),
        "",
        "Credentials were redacted from the session; supply them again as shown.",
        "",
    ]
    return "\n".join(out)
