"""JSON highlighting for raw bodies and canonical text (pygments via ``textual.highlight``)."""

from __future__ import annotations

import json
from typing import Any

from textual.content import Content
from textual.highlight import highlight

from sia_tui.tui.display import truncated, visible

#: Above this size highlighting is skipped: plain text renders fast, colour is not worth a freeze.
HIGHLIGHT_LIMIT = 256 * 1024
#: Above this size a body is not parsed for the pretty view: parsing a multi-megabyte
#: artifact on the UI thread would stall every keystroke (the raw text is shown instead).
PRETTY_LIMIT = 1024 * 1024


def pretty_json(value: Any) -> str:
    """Indented JSON with non-ASCII kept (what a person reads)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def body_text(body: bytes) -> str:
    """Raw bytes as text for display (invalid UTF-8 shown with replacement characters)."""
    return body.decode("utf-8", errors="replace")


def pretty_body(body: bytes) -> str:
    """The body pretty-printed when it is JSON (and not huge), else the raw text."""
    text = body_text(body)
    if len(body) > PRETTY_LIMIT:
        return text
    try:
        return pretty_json(json.loads(text))
    except (ValueError, RecursionError):
        return text


def json_content(text: str, *, limit: int | None, language: str = "json") -> Content:
    """Highlighted, control-safe content of ``text``, cut at ``limit`` characters with a note."""
    shown, cut = truncated(text, limit)
    safe = visible(shown)
    content = highlight(safe, language=language) if len(safe) <= HIGHLIGHT_LIMIT else Content(safe)
    if cut:
        note = f"\n… {len(text) - len(shown):,} more characters hidden (press a to show all)"
        content = content + Content.styled(note, "italic $text-muted")
    return content
