"""The bug report (``report.py``) as one self-contained HTML file: inline CSS, no scripts,
no remote assets, everything escaped."""

from __future__ import annotations

from html import escape

from sia_tui.core.bugreport.blocks import Block, BugReport, Cell, Code, Facts, Paragraph
from sia_tui.core.bugreport.build import build_report
from sia_tui.core.output.printable import printable
from sia_tui.core.session.format import LoadedSession

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#1d1f21;background:#fff}
h1{font-size:1.5em}h2{font-size:1.15em;border-bottom:1px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;
text-align:left;vertical-align:top}th{background:#f3f3f3}
pre{background:#f6f8fa;padding:.8em;overflow:auto;white-space:pre-wrap;word-break:break-all}
code{font-family:ui-monospace,monospace}.summary{font-weight:bold;font-size:1.1em}
.failed{color:#b00020;font-weight:bold}.warned{color:#8a6d00;font-weight:bold}.passed{color:#1b7f3b}.skipped,.not_run{color:#777}
.match{color:#1b7f3b}.differs{color:#b00020;font-weight:bold}
.warning{background:#fff4ce;padding:.5em;border-left:4px solid #e0a800}
dt{font-weight:bold}dd{margin:0 0 .4em 1.5em}
"""


def _e(text: object) -> str:
    """Escaped for HTML, and printable: ``escape`` leaves ESC, C1 and bidi controls alone."""
    return escape(printable(str(text), keep_newlines=True), quote=True)


def _cell(cell: Cell) -> str:
    text = f"<code>{_e(cell.text)}</code>" if cell.code else _e(cell.text)
    return f'<span class="{_e(cell.tone)}">{text}</span>' if cell.tone else text


def _block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return (
            f'<p class="summary">{_e(block.text)}</p>'
            if block.strong
            else f"<p>{_e(block.text)}</p>"
        )
    if isinstance(block, Facts):
        items = "".join(f"<dt>{_e(label)}</dt><dd>{_e(text)}</dd>" for label, text in block.items)
        return f"<dl>{items}</dl>"
    if isinstance(block, Code):
        return f"<pre><code>{_e(block.text)}</code></pre>"
    head = "".join(f"<th>{_e(h)}</th>" for h in block.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in block.rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_report_html(report: BugReport) -> str:
    """Every section of the model, in order, as one page that works offline."""
    parts = [f'<p class="summary">{_e(report.summary)}</p>']
    parts += [f'<p class="warning">{_e(w)}</p>' for w in report.warnings]
    for section in report.sections:
        parts.append(f"<h2>{_e(section.title)}</h2>")
        parts += [_block(b) for b in section.blocks]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">"
        f"<title>sia-tui report</title><style>{_CSS}</style></head><body>"
        f"<h1>sia-tui session report</h1>{''.join(parts)}</body></html>\n"
    )


def render_html(session: LoadedSession, filename: str, number: int | None = None) -> str:
    """The HTML bug report of ``session`` (saved as ``filename``)."""
    return render_report_html(build_report(session, filename, number))
