"""The bug report (``report.py``) as Markdown, ready to paste into a GitHub issue."""

from __future__ import annotations

import re

from sia_tui.core.bugreport.blocks import Block, BugReport, Cell, Code, Facts, Paragraph
from sia_tui.core.bugreport.build import build_report
from sia_tui.core.output.printable import printable
from sia_tui.core.session.format import LoadedSession

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~!])")
#: Marks for toned cells (Markdown has no colour).
_MARKS = {
    "match": "✅ ",
    "differs": "❌ ",
    "failed": "❌ ",
    "warned": "⚠️ ",
    "passed": "",
    "skipped": "",
}


def md_text(text: str) -> str:
    """Agent text as inert Markdown: specials escaped, one line (for tables and prose),
    printable (the output policy: a report may be printed to a terminal)."""
    one_line = printable(text.replace("\r", " ").replace("\n", " "))
    return _MD_SPECIAL.sub(r"\\\1", one_line)


def md_code(text: str, language: str = "") -> str:
    """A fenced block whose fence is longer than any backtick run inside ``text``."""
    text = printable(text, keep_newlines=True)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def md_span(text: str) -> str:
    """An inline code span (no escapes apply inside one, so the fence grows instead)."""
    # GFM tables split on "|" even inside code spans; "\|" is the escape GFM defines there.
    text = printable(text.replace("\r", " ").replace("\n", " ")).replace("|", "\\|")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    tick = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{tick}{pad}{text}{pad}{tick}"


def _cell(cell: Cell) -> str:
    text = md_span(cell.text) if cell.code else md_text(cell.text)
    return _MARKS.get(cell.tone or "", "") + text


def _block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        return [f"**{md_text(block.text)}**" if block.strong else md_text(block.text)]
    if isinstance(block, Facts):
        return [f"- {md_text(label)}: {md_text(text)}" for label, text in block.items]
    if isinstance(block, Code):
        return [md_code(block.text, block.language)]
    lines = ["| " + " | ".join(md_text(h) for h in block.header) + " |"]
    lines.append("|" + "---|" * len(block.header))
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in block.rows]
    return ["\n".join(lines)]


def render_report_markdown(report: BugReport) -> str:
    """Every section of the model, in order."""
    out = ["# sia-tui session report", "", f"**{md_text(report.summary)}**", ""]
    if report.warnings:
        out += ["> [!WARNING]"] + [f"> {md_text(w)}" for w in report.warnings] + [""]
    for section in report.sections:
        out += [f"## {md_text(section.title)}", ""]
        for block in section.blocks:
            out += [*_block(block), ""]
    return "\n".join(out)


def render_markdown(session: LoadedSession, filename: str, number: int | None = None) -> str:
    """The Markdown bug report of ``session`` (saved as ``filename``)."""
    return render_report_markdown(build_report(session, filename, number))
