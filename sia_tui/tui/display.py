"""Render agent-sent text literally: no markup, control characters made visible, secrets masked."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.text import Text
from textual.content import Content

from sia_tui.core.engine import printable
from sia_tui.core.session import MIN_LITERAL_LENGTH, is_credential_header

#: Rendered views of untrusted text stop here; a "show all" action lifts the cap.
DEFAULT_VIEW_LIMIT = 64 * 1024

MASK = "••••••••"


_VOLATILE = (
    (re.compile(r"(127\.0\.0\.1|localhost):\d+"), r"\1:PORT"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<uuid>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"), "<time>"),
    (re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d \w{3} \d{4} [\d:]{8} GMT"), "<date>"),
)
_scrub_volatile = False
#: Values the user marked secret, masked wherever they are shown (issue #6 item 3).
_marked_values: tuple[str, ...] = ()
_reveal_marked = False


def set_snapshot_mode(enabled: bool) -> None:
    """Hide ports, task ids and dates in everything shown, so snapshots are stable."""
    global _scrub_volatile
    _scrub_volatile = enabled


def set_marked_values(values: Iterable[str]) -> None:
    """Mask these values on screen from now on (shortest ones skipped, as in redaction)."""
    global _marked_values
    forms = {printable(v) for v in values if len(v) >= MIN_LITERAL_LENGTH}
    # Longest first, so a secret containing another is masked whole.
    _marked_values = tuple(sorted(forms, key=len, reverse=True))


def set_reveal_marked(reveal: bool) -> None:
    """Show marked values in clear (the Steps screen's ``s``), like credential headers."""
    global _reveal_marked
    _reveal_marked = reveal


def mask_marked(text: str) -> str:
    """``text`` with every marked secret value replaced by the mask (unless revealed)."""
    if _reveal_marked:
        return text
    for value in _marked_values:
        if value in text:
            text = text.replace(value, MASK)
    return text


def mask_in_place(text: str) -> str:
    """``text`` with each marked value replaced by as many ``•`` as it has characters, so
    an editor's columns and cursor stay where they were (unless revealed)."""
    if _reveal_marked:
        return text
    for value in _marked_values:
        if value in text:
            text = text.replace(value, "•" * len(value))
    return text


def scrub(text: str) -> str:
    """``text`` with volatile values replaced (only in snapshot mode)."""
    if _scrub_volatile:
        for pattern, replacement in _VOLATILE:
            text = pattern.sub(replacement, text)
    return text


def visible(text: str, *, multiline: bool = True) -> str:
    """``text`` with control characters replaced by visible symbols (``\\x1b`` -> ``␛``).

    Terminal escape sequences from an agent must never reach the terminal; bidi
    overrides must not reorder what the user reads. Delegates to the core's ``printable``.
    """
    return scrub(mask_marked(printable(text, keep_newlines=multiline)))


def literal(text: object, *, multiline: bool = False, style: str = "") -> Content:
    """Agent text as ``Content``: never parsed as markup (``[bold]`` stays ``[bold]``)."""
    return Content.styled(visible(str(text), multiline=multiline), style)


def literal_text(text: object) -> Text:
    """Agent text as a rich ``Text`` for DataTable cells (never markup)."""
    return Text(visible(str(text), multiline=False), no_wrap=True, end="")


def truncated(text: str, limit: int | None) -> tuple[str, bool]:
    """The first ``limit`` characters and whether anything was cut."""
    if limit is None or len(text) <= limit:
        return text, False
    return text[:limit], True


def masked_header(name: str, value: str, *, reveal: bool = False) -> str:
    """The header value to show: masked when it is a secret unless the user revealed it."""
    if reveal or not is_credential_header(name):
        return value
    scheme, _, rest = value.partition(" ")
    # Keep the scheme ("Bearer") so the user sees what kind of credential was sent.
    return f"{scheme} {MASK}" if rest else MASK
