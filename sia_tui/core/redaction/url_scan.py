"""Where a text holds ``scheme://user:password@``, found in time linear in the text.

A regular expression that starts a URL at every word boundary backtracks over a run like
``a.a.a.…`` once the text holds one such URL (98 s on a 78 KB card description). This scan
anchors on the literal ``:`` + two slashes (also JSON-escaped, ``:\\/\\/``), looks back a
bounded distance for the scheme, and reads the userinfo forward: the userinfo runs of two
anchors never overlap (a slash ends one), so every character is read a bounded number of
times.
"""

from __future__ import annotations

import re

#: The longest scheme looked back for (registered schemes are far shorter).
MAX_SCHEME = 64
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
#: The userinfo: up to the ``@``; never a slash, space, quote, angle bracket, backslash,
#: ``?`` or ``#`` (one character class: linear, it cannot backtrack).
_USERINFO = re.compile(r"[^/\s@\"'<>\\?#]*")


def _after_slashes(text: str, at: int) -> int:
    """The index after ``//`` (each slash optionally JSON-escaped) at ``at``; -1 if none."""
    for _ in range(2):
        if text.startswith("\\/", at):
            at += 2
        elif text.startswith("/", at):
            at += 1
        else:
            return -1
    return at


def _has_scheme(text: str, colon: int) -> bool:
    """True when a scheme (a letter, then letters, digits, ``+.-``) ends at ``colon``."""
    start = colon
    while start > 0 and colon - start < MAX_SCHEME and text[start - 1] in _SCHEME_CHARS:
        start -= 1
    return any(c.isascii() and c.isalpha() for c in text[start:colon])


def userinfo_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each URL's userinfo (without its ``@``), in order."""
    spans = []
    colon = text.find(":")
    while colon >= 0:
        start = _after_slashes(text, colon + 1)
        if start < 0:
            colon = text.find(":", colon + 1)
            continue
        run = _USERINFO.match(text, start)
        end = run.end() if run is not None else start
        if end > start and text.startswith("@", end) and _has_scheme(text, colon):
            spans.append((start, end))
        # A colon inside the run is followed by no slash (the run has none), so the next
        # anchor is at its last character or after it.
        colon = text.find(":", max(end - 1, colon + 1))
    return spans


def has_userinfo(text: str) -> bool:
    """True when ``text`` holds a URL with userinfo."""
    return "@" in text and bool(userinfo_spans(text))
