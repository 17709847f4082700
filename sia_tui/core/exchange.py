"""Immutable records of HTTP and gRPC exchanges: what the wire view and saved sessions show.

HTTP bodies are the raw bytes as sent and received, never a re-serialization. A gRPC
exchange (URL ``grpc://`` or ``grpcs://`` + the method path) records its protobuf messages
as ProtoJSON, the text the JSON bindings would carry, and their binary sizes beside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Headers = tuple[tuple[str, str], ...]
#: ``Exchange.error_kind`` of an exchange stopped on our side (the run's deadline, the user).
CANCELLED = "cancelled"

#: gRPC status codes by number (grpc/status.h), for a recorded gRPC exchange.
GRPC_CODES = (
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
)
#: The HTTP status each gRPC code stands for (google.rpc.Code's own mapping), so that a
#: grade keyed on 401/403 reads a gRPC refusal the same way.
_GRPC_AS_HTTP = {0: 200, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403, 8: 429, 9: 400, 12: 501}
_GRPC_AS_HTTP |= {10: 409, 11: 400, 13: 500, 14: 503, 15: 500, 16: 401}


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
    #: For streams: the raw bytes of each SSE event's data (gRPC: each message as
    #: ProtoJSON), in arrival order.
    events: tuple[bytes, ...] = field(default=())
    #: Events the stream sent that ``events`` does not keep (``limits.MAX_STREAM_EVENTS_KEPT``:
    #: the first ones and the last are kept, these are counted).
    events_not_kept: int = 0
    #: Why the exchange ended early: the failure's ``SiaError.kind`` (``response_too_large``
    #: when our own limit cut the body, ``timeout``...), so a replay ends it the same way
    #: instead of reading a cut body as if the agent had sent it.
    error_kind: str | None = None
    #: gRPC only: the binary size of the request message, then of each response message.
    message_sizes: tuple[int, ...] = ()
    #: When each kept event arrived, in milliseconds after the exchange started (one per
    #: ``events`` item; empty for an answer that is not a stream, or a session saved before
    #: event times were kept): a mock serves a stream at its recorded pace from these.
    event_offsets_ms: tuple[float, ...] = ()
    #: The span id of this exchange's W3C ``traceparent`` (None: no trace header was sent,
    #: as with ``--no-trace`` or a session saved before trace ids).
    span_id: str | None = None

    def __repr__(self) -> str:
        # Bodies by size: a repr is for logs and tracebacks, not for 8 MiB of bytes.
        return (
            f"Exchange(seq={self.seq}, purpose={self.purpose!r}, method={self.method!r}, "
            f"url={self.url!r}, status={self.status}, request_body=<{len(self.request_body)} "
            f"bytes>, response_body=<{len(self.response_body)} bytes>, "
            f"events={len(self.events)}+{self.events_not_kept}, error={self.error!r})"
        )

    @property
    def grpc(self) -> bool:
        """True for a gRPC call (``status`` is then a gRPC status code)."""
        return self.url.startswith(("grpc://", "grpcs://"))

    @property
    def status_text(self) -> str:
        """``HTTP 200``, ``gRPC NOT_FOUND (5)``, or ``no response``."""
        if self.status is None:
            return "no response"
        if not self.grpc:
            return f"HTTP {self.status}"
        name = GRPC_CODES[self.status] if 0 <= self.status < len(GRPC_CODES) else "code"
        return f"gRPC {name} ({self.status})"

    @property
    def http_status(self) -> int | None:
        """The HTTP status, or the one a gRPC status code stands for (UNAUTHENTICATED 401)."""
        if self.status is None or not self.grpc:
            return self.status
        return _GRPC_AS_HTTP.get(self.status, 500)

    def header(self, name: str, *, response: bool = True) -> str | None:
        """First header value by case-insensitive name."""
        wanted = name.lower()
        for key, value in self.response_headers if response else self.request_headers:
            if key.lower() == wanted:
                return value
        return None
