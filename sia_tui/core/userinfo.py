"""URL userinfo (``user:password@``) removed before a location is shown or stored.

The user may give a card URL with credentials in it; the client uses them, but no screen,
recent-targets list or edit file may keep them (they are secrets like a bearer token).
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def strip_userinfo(location: str) -> str:
    """``location`` without its ``user:password@`` part; anything that is not such a URL
    (a local card file, text that does not parse) is returned unchanged."""
    try:
        parts = urlsplit(location)
    except ValueError:
        return location
    if not parts.scheme or "@" not in parts.netloc:
        return location
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
