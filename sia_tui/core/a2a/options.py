"""Client options: timeouts, size limits, TLS and credentials for every A2A exchange."""

from __future__ import annotations

from dataclasses import dataclass

from sia_tui.core import limits

#: Default response ceiling: large enough for any sane card or document, small enough to stay safe.
DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024
#: Default nesting ceiling for response JSON (the team-wide limit).
DEFAULT_MAX_DEPTH = limits.MAX_JSON_DEPTH
#: Default ceiling for one SSE event's data.
DEFAULT_MAX_EVENT_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class ClientOptions:
    """How the A2A client talks to an agent. Everything has a safe default."""

    #: Seconds to establish a connection (TCP + TLS).
    connect_timeout: float = 5.0
    #: Seconds to wait for the next bytes of a response.
    read_timeout: float = 15.0
    #: Seconds a whole non-streaming exchange may take, headers and body together (a slow
    #: drip still ends).
    total_timeout: float = 60.0
    #: Seconds one run of the procedure may spend in its steps, all exchanges, polls and
    #: streams together, whatever ``max_duration_seconds`` the agent declares.
    deadline: float = limits.DEFAULT_DEADLINE_SECONDS
    #: Seconds a stream may stay silent (SDK servers ping every 15 s).
    stream_idle_timeout: float = 60.0
    #: Bodies beyond this are aborted and recorded as truncated.
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    #: Deepest JSON nesting accepted from the agent.
    max_depth: int = DEFAULT_MAX_DEPTH
    #: Largest single SSE event (data lines joined).
    max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES
    #: TLS verification: True (system/certifi CAs), False, or the path of a CA bundle.
    verify: bool | str = True
    #: Client certificate: a PEM path (cert+key) or (cert path, key path).
    cert: str | tuple[str, str] | None = None
    #: Extra request headers from the user, sent to the card origin only by default.
    headers: tuple[tuple[str, str], ...] = ()
    #: Bearer token for ``Authorization: Bearer ...``.
    bearer: str | None = None
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
