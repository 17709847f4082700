"""Where a GRPC interface is and whether it speaks TLS, decided without a silent downgrade.

A2A 1.0 writes a gRPC interface URL as ``host:port``; the specification's own sample card
writes ``https://host/path``, so both are read. TLS or plaintext:

- a scheme in the URL decides: ``https://`` is TLS, ``http://`` plaintext;
- a bare ``host:port`` follows the card's own transport: TLS when the card came over https
  or from a file, plaintext when it came over http (a loopback demo just works);
- ``--grpc-tls`` and ``--grpc-plaintext`` override both.

A TLS failure is reported as such and never retried in plaintext. No grpc import here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sia_tui.core.a2a.origin import Origin, origin_of
from sia_tui.core.errors import A2AProtocolError, TransportError

#: The one service sia-tui calls (A2A 1.0 ``a2a.proto``).
SERVICE = "lf.a2a.v1.A2AService"


@dataclass(frozen=True)
class GrpcTarget:
    """A gRPC server address and its transport security, with why it was chosen."""

    host: str
    port: int
    tls: bool
    #: Why TLS or plaintext, one phrase ("the card came over http").
    reason: str

    @property
    def address(self) -> str:
        """``host:port`` as grpc dials it (IPv6 in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def origin(self) -> Origin:
        """The origin credentials are judged by (RULES SR7): https when TLS, else http."""
        return ("https" if self.tls else "http", self.host, self.port)

    def url(self, method: str) -> str:
        """What an exchange records: ``grpcs://host:port/lf.a2a.v1.A2AService/Method``."""
        return f"{'grpcs' if self.tls else 'grpc'}://{self.address}/{SERVICE}/{method}"


def card_transport(card_location: str | None) -> tuple[bool, str]:
    """Whether the card itself came over TLS (or from a file), and that in a phrase."""
    if card_location is None or "://" not in card_location:
        return True, "the card came from a file"
    if card_location.lower().startswith("http://"):
        return False, "the card came over http"
    return True, "the card came over https"


def grpc_target(url: str, card_location: str | None, choice: str | None = None) -> GrpcTarget:
    """The target of a GRPC interface ``url`` for a card read from ``card_location``;
    ``choice`` is ``--grpc-tls`` or ``--grpc-plaintext`` ("tls", "plaintext") or None."""
    scheme, sep, rest = url.partition("://")
    if sep:
        scheme = scheme.lower()
        if scheme not in ("http", "https"):
            raise A2AProtocolError(
                f"gRPC interface URL {url[:200]!r}: use host:port, or an http(s) URL"
            )
        tls, reason = scheme == "https", f"the interface URL says {scheme}://"
        checked = f"{scheme}://{rest}"
    else:
        tls, reason = card_transport(card_location)
        authority = url.split("/", 1)[0]
        if not authority.rpartition(":")[2].isdigit() or authority.endswith("]"):
            raise A2AProtocolError(f"gRPC interface URL {url[:200]!r} has no port (host:port)")
        checked = f"http://{authority}"
    if choice is not None:
        tls, reason = choice == "tls", f"--grpc-{choice}"
    # The origin reading of origin.py: an ambiguous port is refused, never guessed (SR7).
    try:
        _, host, port = origin_of(checked)
    except TransportError as exc:
        raise A2AProtocolError(f"gRPC interface URL {url[:200]!r}: {exc.message}") from None
    if not host:
        raise A2AProtocolError(f"gRPC interface URL {url[:200]!r} has no host")
    # An https:// URL without a port means 443 (http:// 80), whatever the flags choose.
    return GrpcTarget(host, port, tls, reason)
