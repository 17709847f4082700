"""Credentials removed from a URL before it is shown or stored.

The user may give a card URL with credentials in it (``user:password@`` or a token in the
query, ``?token=...``); the client uses them, but no screen, recent-targets list or edit
file may keep them (they are secrets like a bearer token: RULES SR7 keeps them to their
origin, and nothing saved may hold them).
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from sia_tui.core.redaction.redact import QUERY_TOKEN, placeholder


def strip_credentials(location: str) -> str:
    """``location`` without its ``user:password@`` part, and with the value of every
    token-like query parameter replaced by its redaction placeholder (the name stays, so
    the user sees that a token is needed). Anything that is not such a URL (a local card
    file, text that does not parse) is returned unchanged."""
    try:
        parts = urlsplit(location)
    except ValueError:
        return location
    if not parts.scheme:
        return location
    if "@" in parts.netloc:
        parts = parts._replace(netloc=parts.netloc.rpartition("@")[2])
    stripped = urlunsplit(parts)
    return QUERY_TOKEN.sub(lambda m: m.group(1) + placeholder(m.group(1)[1:-1]), stripped)


def target_identity(location: str) -> str:
    """The card location without userinfo, query or fragment: it names the agent, and a
    credential in the URL must never reach the cache file or a contract lock."""
    try:
        parts = urlsplit(location)
    except ValueError:
        return location
    if not parts.scheme:
        return location  # a local card file
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
