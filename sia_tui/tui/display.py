"""Render agent-sent text literally: no markup, control characters made visible, secrets masked.

Agent text reaches a widget as an ``AgentText``: ``Content`` that only
``DisplayPolicy.literal`` makes, so it was never parsed as markup, holds no control or
format character, and has the user's secrets masked. The widgets of ``widgets/literal.py``
take it (or ``Content`` built from it) and never parse a ``str`` as markup.

How text is shown is one ``DisplayPolicy`` object, owned by the app and passed to every
renderer: the values the user marked secret, whether this view reveals secrets (the Steps
screen's ``s``, for that screen only), and an optional scrubber that test harnesses inject
to hide volatile values (ports, clocks) in snapshots. There is no module-level state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual.content import Content, Span

from sia_tui.core.output import printable
from sia_tui.core.redaction import MIN_LITERAL_LENGTH, Redactor, is_credential_header

if TYPE_CHECKING:
    from sia_tui.core.a2a import ClientOptions

#: Rendered views of untrusted text stop here; a "show all" action lifts the cap.
DEFAULT_VIEW_LIMIT = 64 * 1024

MASK = "••••••••"

#: Only ``DisplayPolicy.literal`` holds it, so only it can make an ``AgentText``.
_MADE_BY_POLICY = object()


class AgentText(Content):
    """Text an agent (or a file) sent, as it may be shown: never markup, every control or
    format character a visible stand-in, secrets masked. Made by ``DisplayPolicy.literal``
    only; joined with other ``Content`` it makes plain ``Content``, which stays safe."""

    __slots__ = ()

    def __init__(self, text: str, spans: list[Span] | None = None, *, made_by: object) -> None:
        if made_by is not _MADE_BY_POLICY:
            # Content's own constructors (styled, assemble...) would skip the policy.
            raise TypeError("AgentText is made by DisplayPolicy.literal only")
        super().__init__(text, spans)


#: Rewrites text just before it is shown (tests: hide ports and clocks; never set by the app).
Scrubber = Callable[[str], str]


@dataclass(frozen=True)
class DisplayPolicy:
    """How text reaches the screen; immutable, so a screen may derive its own (``revealing``)."""

    marked: tuple[str, ...] = ()
    """Every form of every known secret (``secret_forms``), longest first: masked on screen."""
    reveal: bool = False
    """Show credential headers and marked values in clear (only where the user asked)."""
    scrub: Scrubber | None = None
    """Injected by test harnesses for stable snapshots; the product never sets one."""

    def masking(self, forms: Iterable[str]) -> DisplayPolicy:
        """This policy masking ``forms`` (see ``secret_forms``) wherever they are shown."""
        # Longest first, so a secret containing another is masked whole.
        return replace(self, marked=tuple(sorted(set(forms), key=len, reverse=True)))

    def revealing(self, reveal: bool) -> DisplayPolicy:
        """This policy with secrets shown in clear (``True``) or masked."""
        return self if reveal == self.reveal else replace(self, reveal=reveal)

    # -- masking -------------------------------------------------------------------------------
    def mask_marked(self, text: str) -> str:
        """``text`` with every marked secret value replaced by the mask (unless revealed)."""
        if self.reveal:
            return text
        for value in self.marked:
            if value in text:
                text = text.replace(value, MASK)
        return text

    def mask_in_place(self, text: str) -> str:
        """``text`` with each marked value replaced by as many ``•`` as it has characters, so
        an editor's columns and cursor stay where they were (unless revealed)."""
        if self.reveal:
            return text
        for value in self.marked:
            if value in text:
                text = text.replace(value, "•" * len(value))
        return text

    def header_value(self, name: str, value: str) -> str:
        """The header value to show: masked when it is a credential, unless revealed."""
        return masked_header(name, value, reveal=self.reveal)

    # -- rendering -----------------------------------------------------------------------------
    def visible(self, text: str, *, multiline: bool = True) -> str:
        """``text`` with control characters replaced by visible symbols (``\\x1b`` -> ``␛``).

        Terminal escape sequences from an agent must never reach the terminal; bidi
        overrides must not reorder what the user reads. Delegates to the core's ``printable``.
        """
        shown = self.mask_marked(printable(text, keep_newlines=multiline))
        return self.scrub(shown) if self.scrub is not None else shown

    def literal(self, text: object, *, multiline: bool = False, style: str = "") -> AgentText:
        """Agent text as ``AgentText``: never parsed as markup (``[bold]`` stays ``[bold]``),
        controls visible, secrets masked."""
        shown = self.visible(str(text), multiline=multiline)
        spans = [Span(0, len(shown), style)] if style and shown else None
        return AgentText(shown, spans, made_by=_MADE_BY_POLICY)

    def literal_text(self, text: object) -> Text:
        """Agent text as a rich ``Text`` for DataTable cells, which measure rich Text (made
        the same way as ``literal``: never markup)."""
        return Text(self.visible(str(text), multiline=False), no_wrap=True, end="")


#: The policy of a view that has no app policy to follow (nothing marked, nothing revealed).
PLAIN = DisplayPolicy()


def policy_of(app: object) -> DisplayPolicy:
    """The display policy of ``app`` (sia-tui's), or ``PLAIN`` for a screen hosted elsewhere."""
    policy = getattr(app, "display_policy", PLAIN)
    return policy if isinstance(policy, DisplayPolicy) else PLAIN


def secret_forms(
    options: ClientOptions,
    *,
    location: str | None = None,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
    issued: Iterable[tuple[str, str]] = (),
) -> set[str]:
    """Every form a known secret may take on screen: the bearer token and credential header
    values of ``options``, the tokens issued during the run (``Run.issued``), a password or
    token in ``location``, the values the user marked secret, each with the encodings an
    agent may echo it in. The same secrets the session files and reports redact
    (``Redactor.from_options``), masked on every screen instead.
    """
    redactor = Redactor.from_options(
        options,
        location=location,
        secret_values=secret_values,
        secret_headers=secret_headers,
        issued=issued,
    )
    # Shorter forms would mask innocent text everywhere ("ab" in every body).
    return {
        shown
        for form in redactor.literals
        for shown in (form, printable(form))
        if len(shown) >= MIN_LITERAL_LENGTH
    }


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
