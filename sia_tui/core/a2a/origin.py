"""Origins as httpx will connect to them (RULES SR7: credentials stay with the card origin).

An origin read one way and connected another way sends credentials across: ``urlsplit``
refuses the port of ``http://host:+8080`` (or fullwidth digits) while httpx connects to
8080. So the origin is httpx's own reading, and a URL whose port is not plain ASCII
digits, or that ``urlsplit`` reads as another port than httpx, is refused outright.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx

from sia_tui.core.errors import OriginRefused, TransportError

#: (scheme, host, port), the port always explicit.
Origin = tuple[str, str, int]
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _port_text(netloc: str) -> str:
    """What stands after the host's colon in ``netloc`` (for messages only)."""
    host_port = netloc.rpartition("@")[2]
    tail = host_port.rpartition("]")[2] if host_port.startswith("[") else host_port
    return tail.partition(":")[2]


def origin_of(url: str) -> Origin:
    """(scheme, host, port) of ``url`` as httpx connects; TransportError when ambiguous."""
    try:
        target = httpx.URL(url)
        parts = urlsplit(url)
    except (httpx.InvalidURL, ValueError) as exc:
        raise TransportError(f"not a valid URL: {exc}", url=url[:300]) from None
    scheme = target.scheme.lower()
    default = _DEFAULT_PORTS.get(scheme, 0)
    port = target.port if target.port is not None else default
    try:
        plain = parts.port  # None, or an int from plain ASCII digits in 0..65535
    except ValueError:
        plain = -1
    if plain == -1 or (plain if plain is not None else default) != port:
        raise OriginRefused(
            f"port {_port_text(parts.netloc)[:40]!r} is not plain ASCII digits in 0-65535; "
            f"refused (it would connect to port {port}, RULES SR7)",
            url=url[:300],
        )
    return scheme, target.raw_host.decode("ascii").lower(), port


def origin_text(origin: Origin) -> str:
    """``scheme://host:port`` of an origin."""
    scheme, host, port = origin
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"
