"""httpx's own transport, one for https and one for http, each built on first use.

An ``AsyncClient`` builds its transport, and with it a TLS context, when it is created:
loading the CA bundle costs about 20 ms of CPU, which a run against an http://
agent never needs. ``SchemeTransports`` builds httpx's ``AsyncHTTPTransport`` for a
scheme on its first request instead: https gets exactly what the client would have built
(same verification, certificates, environment and limits); plain http gets a context
that requires certificates and trusts none, so a TLS handshake through it could only
fail. Proxies from the environment keep their own transports (the client mounts them).
"""

from __future__ import annotations

import ssl

import httpx

from sia_tui.core.errors import TransportError


def _trusting_nothing() -> ssl.SSLContext:
    """Verification on, no CA loaded: for a transport that never speaks TLS (plain http)."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class SchemeTransports(httpx.AsyncBaseTransport):
    """The client's default transport: https and http each get theirs on first use."""

    def __init__(
        self, verify: ssl.SSLContext | bool, *, trust_env: bool, limits: httpx.Limits
    ) -> None:
        self._verify = verify
        self._trust_env = trust_env
        self._limits = limits
        self._built: dict[bool, httpx.AsyncHTTPTransport] = {}  # secure? -> transport

    def transport_for(self, url: httpx.URL) -> httpx.AsyncHTTPTransport:
        """The transport for ``url``'s scheme, built now if this is its first request."""
        secure = url.scheme == "https"
        transport = self._built.get(secure)
        if transport is None:
            try:
                transport = httpx.AsyncHTTPTransport(
                    verify=self._verify if secure else _trusting_nothing(),
                    trust_env=self._trust_env,
                    limits=self._limits,
                )
            except (OSError, ssl.SSLError) as exc:  # e.g. SSL_CERT_FILE names no bundle
                raise TransportError(f"cannot load TLS files: {exc}", url=str(url)) from exc
            self._built[secure] = transport
        return transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.transport_for(request.url).handle_async_request(request)

    async def aclose(self) -> None:
        for transport in self._built.values():
            await transport.aclose()
