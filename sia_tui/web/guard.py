"""The gate in front of textual-serve: per-launch token, Host and Origin checks, headers.

textual-serve has no authentication: whoever reaches its port gets a shell-launched app
(the lesson of MCP Inspector's CVE-2025-49596: a local dev server driven from a malicious
web page). So every request must carry the launch's random token as the first path segment
(``/TOKEN/``, ``/TOKEN/ws``, ``/TOKEN/static/...``); anything else is refused with 403 before
any textual-serve handler runs. A path token, not a query parameter or a cookie: textual.js
appends its own ``?width=..`` to the websocket URL, and a cookie would be an ambient
credential that other local pages could ride on.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

from aiohttp import WSCloseCode, hdrs, web
from aiohttp.http_exceptions import HttpProcessingError

#: 32 random bytes, URL-safe base64 (43 characters): unguessable, and safe in a path.
TOKEN_BYTES: Final = 32

#: Refusals printed to stderr before going quiet (a hostile page could loop).
MAX_REPORTED_REFUSALS: Final = 10

#: Names a browser may use for a loopback-bound server (the Host header, without port).
LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "[::1]")

#: A Host value safe to repeat in the CSP header (no spaces, quotes or ';').
_HOST_SYNTAX = re.compile(r"^[A-Za-z0-9.\-\[\]:]{1,300}$")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    """A fresh per-launch token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def url_host(address: str) -> str:
    """``address`` as it appears in a URL (IPv6 literals in brackets)."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


@dataclass
class Gate:
    """Checks every request against the token; for a loopback bind, the Host too.

    ``hosts``: the Host header values accepted (``name:port``), or empty to accept any
    (a non-loopback bind is reached by names we cannot know; the token still applies).
    """

    token: str
    hosts: frozenset[str]
    report: Callable[[str], None]
    refusals: int = 0
    _sockets: weakref.WeakSet[web.WebSocketResponse] = field(default_factory=weakref.WeakSet)

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` must be refused, or None when it may pass."""
        if not request.raw_path.startswith("/"):
            # Absolute form (``GET http://evil.example/TOKEN/``) is for proxies; aiohttp
            # takes its host as request.host, which an Origin would then match.
            return "request target not in origin form"
        host = request.headers.get(hdrs.HOST, "")
        if self.hosts and host.lower() not in self.hosts:
            # DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1.
            return "unexpected Host header"
        parts = request.rel_url.path.split("/", 2)
        segment = parts[1] if len(parts) > 1 and not parts[0] else ""
        if not hmac.compare_digest(segment.encode("utf-8", "replace"), self.token.encode("ascii")):
            return "missing or wrong token"
        origin = request.headers.get(hdrs.ORIGIN)
        if origin is not None and origin.lower() != f"{request.scheme}://{host}".lower():
            # A page elsewhere that somehow holds the token still cannot drive the app.
            return "cross-origin request"
        return None

    def refused(self, what: str, peer: str | None, reason: str) -> None:
        """Count a refusal; report the first few (a hostile page could loop)."""
        self.refusals += 1
        if self.refusals <= MAX_REPORTED_REFUSALS:
            self.report(f"refused {what} from {peer or '?'}: {reason}")
            if self.refusals == MAX_REPORTED_REFUSALS:
                self.report("further refusals are not reported")

    def http_logger(self) -> logging.Logger:
        """The logger aiohttp's request handler writes to: as aiohttp's own, except that a
        request it cannot parse (no Host header, two) is one counted refusal, not a
        traceback per request. aiohttp answers those 400 itself, before any middleware."""
        logger = logging.Logger("aiohttp.server.sia-tui")  # not registered: dies with us
        logger.parent = logging.getLogger("aiohttp.server")
        logger.addFilter(self._quiet_bad_request)
        return logger

    def _quiet_bad_request(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        peer = record.args[0] if isinstance(record.args, tuple) and record.args else None
        self.refused("a malformed request", str(peer), f"400 {error.message.strip()}")
        return False

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse (403) or pass the request on."""
        reason = self.refusal(request)
        if reason is not None:
            self.refused(request.method, request.remote, reason)
            raise web.HTTPForbidden(text=f"403 forbidden: {reason}\n")
        if request.rel_url.path == f"/{self.token}":
            # The page's URLs are relative to /TOKEN/.
            raise web.HTTPFound(f"/{self.token}/")
        return await handler(request)

    async def on_prepare(self, request: web.Request, response: web.StreamResponse) -> None:
        """on_response_prepare: remember each browser session's websocket."""
        if isinstance(response, web.WebSocketResponse):
            self._sockets.add(response)

    async def close_sockets(self, app: web.Application) -> None:
        """on_shutdown: close every browser session's websocket; textual-serve then tells
        its app to quit and waits for the process to end (aiohttp's documented pattern)."""
        closing = [
            websocket.close(code=WSCloseCode.GOING_AWAY, message=b"sia-tui web stopped")
            for websocket in list(self._sockets)
        ]
        await asyncio.gather(*closing)


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: no referrer (the URL holds the token), no caching, no framing,
    and a CSP that lets the page load nothing but this server's own files."""
    host = request.host if _HOST_SYNTAX.match(request.host) else ""
    sockets = f" ws://{host}" if host else ""
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"font-src 'self'; img-src 'self' data:; connect-src 'self'{sockets}; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
