"""Client options: timeouts, size limits, TLS and credentials for every A2A exchange."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sia_tui.core import limits
from sia_tui.core.a2a import defaults


@dataclass(frozen=True)
class ClientOptions:
    """How the A2A client talks to an agent. Everything has a safe default."""

    #: Seconds to establish a connection (TCP + TLS).
    connect_timeout: float = defaults.CONNECT_TIMEOUT
    #: Seconds to wait for the next bytes of a response.
    read_timeout: float = defaults.READ_TIMEOUT
    #: Seconds a whole non-streaming exchange may take, headers and body together (a slow
    #: drip still ends).
    total_timeout: float = defaults.TOTAL_TIMEOUT
    #: Seconds one run of the procedure may spend in its steps, all exchanges, polls and
    #: streams together, whatever ``max_duration_seconds`` the agent declares.
    deadline: float = defaults.DEADLINE
    #: Seconds a stream may stay silent (SDK servers ping every 15 s).
    stream_idle_timeout: float = defaults.STREAM_IDLE_TIMEOUT
    #: Bodies beyond this are aborted and recorded as truncated.
    max_response_bytes: int = defaults.MAX_RESPONSE_BYTES
    #: Deepest JSON nesting accepted from the agent (the team-wide limit).
    max_depth: int = limits.MAX_JSON_DEPTH
    #: Largest single SSE event (data lines joined).
    max_event_bytes: int = defaults.MAX_EVENT_BYTES
    #: TLS verification: True (system/certifi CAs), False, or the path of a CA bundle.
    verify: bool | str = True
    #: Client certificate: a PEM path (cert+key) or (cert path, key path).
    cert: str | tuple[str, str] | None = None
    #: Extra request headers from the user, sent to the card origin only by default. Like
    #: the bearer token, left out of ``repr``: a log or a traceback never shows them.
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    #: Bearer token for ``Authorization: Bearer ...``.
    bearer: str | None = field(default=None, repr=False)
    #: Follow same-origin redirects (never cross-origin ones, RULES SR7).
    follow_redirects: bool = False
    #: Send user headers and bearer to interface URLs on another origin than the card's.
    allow_cross_origin: bool = False
    #: Honour proxy settings from the environment (HTTP(S)_PROXY, NO_PROXY).
    trust_env: bool = True
    #: Activate the schema-interface extension with the A2A-Extensions header.
    extensions: bool = True
    #: Seconds between GetTask calls while polling (clamped to 0..30).
    poll_interval: float = 0.5
    #: Most GetTask calls one poll makes.
    poll_max: int = 120
    #: gRPC transport security: "tls" or "plaintext" whatever the card says, or None to
    #: follow the interface URL and the card (``grpc_target.py``; never a silent downgrade).
    grpc_security: Literal["tls", "plaintext"] | None = None
