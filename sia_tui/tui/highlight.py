"""JSON highlighting for raw bodies and canonical text (pygments via ``textual.highlight``).

pygments is imported on the first highlight, not with this module: the first screen shown
at start-up may not need it.
"""

from __future__ import annotations

from textual.content import Content

from sia_tui.tui.display import DisplayPolicy, truncated

#: Above this size highlighting is skipped: plain text renders fast, colour is not worth a freeze.
HIGHLIGHT_LIMIT = 256 * 1024


def json_content(
    text: str, policy: DisplayPolicy, *, limit: int | None, language: str = "json"
) -> Content:
    """Highlighted, control-safe content of ``text``, cut at ``limit`` characters with a note."""
    shown, cut = truncated(text, limit)
    safe = policy.visible(shown)
    if len(safe) <= HIGHLIGHT_LIMIT:
        from textual.highlight import highlight

        content = highlight(safe, language=language)
    else:
        content = Content(safe)
    if cut:
        note = f"\n… {len(text) - len(shown):,} more characters hidden (press a to show all)"
        content = content + Content.styled(note, "italic $text-muted")
    return content
