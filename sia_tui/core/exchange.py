"""Immutable records of HTTP exchanges: what the wire view and saved sessions show.

Bodies are the raw bytes as sent and received, never a re-serialization.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Headers = tuple[tuple[str, str], ...]
#: ``Exchange.error_kind`` of an exchange stopped on our side (the run's deadline, the user).
CANCELLED = "cancelled"


@dataclass(frozen=True)
class Exchange:
    """One HTTP request and its response (or the transport error that replaced it)."""

    #: Sequence number within a run, from 1.
    seq: int
    #: What the exchange was for, e.g. "agent card", "describe_skill", "invoke".
    purpose: str
    method: str
    url: str
    request_headers: Headers
    request_body: bytes
    #: HTTP status, or None when no response arrived.
    status: int | None = None
    response_headers: Headers = ()
    response_body: bytes = b""
    #: Wall-clock start (Unix seconds) and duration in milliseconds.
    started_at: float = 0.0
    elapsed_ms: float = 0.0
    #: Transport error text when the exchange failed (refused, timeout, too large...).
    error: str | None = None
    #: True when the body was cut at the size limit.
    truncated: bool = False
    #: For streams: the raw bytes of each SSE event's data, in arrival order.
    events: tuple[bytes, ...] = field(default=())
    #: Why the exchange ended early: the failure's ``SiaError.kind`` (``response_too_large``
    #: when our own limit cut the body, ``timeout``...), so a replay ends it the same way
    #: instead of reading a cut body as if the agent had sent it.
    error_kind: str | None = None

    def __repr__(self) -> str:
        # Bodies by size: a repr is for logs and tracebacks, not for 8 MiB of bytes.
        return (
            f"Exchange(seq={self.seq}, purpose={self.purpose!r}, method={self.method!r}, "
            f"url={self.url!r}, status={self.status}, request_body=<{len(self.request_body)} "
            f"bytes>, response_body=<{len(self.response_body)} bytes>, "
            f"events={len(self.events)}, error={self.error!r})"
        )

    def header(self, name: str, *, response: bool = True) -> str | None:
        """First header value by case-insensitive name."""
        wanted = name.lower()
        for key, value in self.response_headers if response else self.request_headers:
            if key.lower() == wanted:
                return value
        return None
