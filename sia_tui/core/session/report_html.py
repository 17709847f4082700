"""A self-contained HTML bug report: inline CSS, no scripts, no remote assets, all escaped."""

from __future__ import annotations

from html import escape

from sia_tui.core.pointer import display
from sia_tui.core.session.facts import evidence_text, gather
from sia_tui.core.session.format import LoadedSession

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#1d1f21;background:#fff}
h1{font-size:1.5em}h2{font-size:1.15em;border-bottom:1px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;
text-align:left;vertical-align:top}th{background:#f3f3f3}
pre{background:#f6f8fa;padding:.8em;overflow:auto;white-space:pre-wrap;word-break:break-all}
code{font-family:ui-monospace,monospace}.summary{font-weight:bold;font-size:1.1em}
.failed{color:#b00020;font-weight:bold}.passed{color:#1b7f3b}.skipped,.not_run{color:#777}
.match{color:#1b7f3b}.differs{color:#b00020;font-weight:bold}
.warning{background:#fff4ce;padding:.5em;border-left:4px solid #e0a800}
"""
_MARK = {True: ("match", "match"), False: ("differs", "differs"), None: ("", "—")}


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _table(header: list[str], rows: list[list[str]]) -> str:
    """A table; cells in ``rows`` must already be escaped HTML."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_html(session: LoadedSession, filename: str) -> str:
    """The same report as the Markdown one, as one HTML file that works offline."""
    facts = gather(session, filename)
    parts = [f'<p class="summary">{_e(facts.summary)}</p>']
    parts += [f'<p class="warning">{_e(w)}</p>' for w in facts.warnings]
    parts += [
        "<h2>Environment</h2>",
        _table(["component", "version"], [[_e(k), _e(v)] for k, v in facts.environment]),
    ]
    parts += [
        "<h2>Steps</h2>",
        _table(
            ["#", "step", "rule", "status", "code", "message"],
            [
                [
                    str(s.step),
                    _e(s.title),
                    _e(s.rule),
                    f'<span class="{_e(s.status.value)}">{_e(s.status.value)}</span>',
                    _e(s.code or ""),
                    _e(s.message),
                ]
                for s in facts.steps
            ],
        ),
    ]
    if facts.failed:
        f = facts.failed
        parts += [
            f"<h2>Failing step {f.step}: {_e(f.title)} ({_e(f.rule)})</h2>",
            f"<p>code <code>{_e(f.code or 'none')}</code> ({_e(f.origin or 'local')}): "
            f"{_e(f.message)}</p>",
        ]
        if f.hint:
            parts.append(f"<p>Next: {_e(f.hint)}</p>")
        parts.append(f"<pre><code>{_e(evidence_text(f))}</code></pre>")
    parts += [
        "<h2>Interface digests</h2>",
        _table(
            ["source", "digest", "vs advertised"],
            [
                [
                    _e(r.source),
                    f"<code>{_e(r.value)}</code>" if r.value else "—",
                    f'<span class="{_MARK[r.matches_advertised][0]}">'
                    f"{_MARK[r.matches_advertised][1]}</span>",
                ]
                for r in facts.digests
            ],
        ),
    ]
    parts.append("<h2>Located errors</h2>")
    if facts.findings:
        parts.append(
            _table(
                ["step", "pointer", "rule", "code", "keyword", "expected", "actual", "message"],
                [
                    [
                        str(step) if step else "record",
                        f"<code>{_e(display(f.pointer))}</code>",
                        _e(f.rule or ""),
                        _e(f.code or ""),
                        _e(f.keyword or ""),
                        _e(f.expected or ""),
                        _e(f.actual or ""),
                        _e(f.message),
                    ]
                    for step, f in facts.findings
                ],
            )
        )
    else:
        parts.append("<p>None.</p>")
    parts.append("<h2>Minimal request that reproduces</h2>")
    if facts.repro:
        r = facts.repro
        head = "\n".join([f"{r.method} {r.url}", *(f"{k}: {v}" for k, v in r.headers)])
        parts += [
            f"<pre><code>{_e(head)}</code></pre>",
            f"<pre><code>{_e(r.body or '(empty body)')}</code></pre>",
        ]
    else:
        parts.append("<p>No request was recorded.</p>")
    parts += [
        "<h2>Re-run it</h2>",
        f"<pre><code>{_e(facts.rerun_command)}</code></pre>",
        "<p>Credentials were redacted from the session; supply them again as shown.</p>",
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">"
        f"<title>sia-tui report</title><style>{_CSS}</style></head><body>"
        f"<h1>sia-tui session report</h1>{''.join(parts)}</body></html>\n"
    )
