"""Client options: timeouts, size limits, TLS and credentials for every A2A exchange."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from sia_tui.core import limits
from sia_tui.core.a2a import defaults
from sia_tui.core.errors import FileInputError, SiaError
from sia_tui.core.local_file import read_regular_file

#: Environment variables of the secrets that are never given on the command line.
CLIENT_SECRET_ENV = "SIA_TUI_OAUTH2_CLIENT_SECRET"
API_KEY_ENV = "SIA_TUI_API_KEY"
#: A client secret file larger than this is not a secret file.
MAX_SECRET_FILE_BYTES = 4096


def read_secret_file(path: str) -> str:
    """The secret in a file the user named (``--oauth2-client-secret-file``), stripped."""
    found = read_regular_file(path, MAX_SECRET_FILE_BYTES).data
    if len(found) > MAX_SECRET_FILE_BYTES:
        raise FileInputError(path, f"larger than {MAX_SECRET_FILE_BYTES} bytes")
    try:
        return found.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise FileInputError(path, "not UTF-8 text") from None


@dataclass(frozen=True)
class OAuth2Settings:
    """The user's OAuth2 client credentials (``--oauth2-client-id`` and its secret)."""

    client_id: str
    client_secret: str = field(repr=False)
    #: Scopes to ask for; empty: what the card's requirements name.
    scopes: tuple[str, ...] = ()
    #: The token endpoint the user named; None: the card's, on the card's origin only.
    token_url: str | None = None


class OAuth2Problem(StrEnum):
    """Why the OAuth2 client credentials a user gave cannot be used (each surface words it)."""

    #: A bearer token was given too: which of the two to send is the user's choice.
    WITH_BEARER = "with_bearer"
    #: A secret (or a scope, a token URL) without the client id it belongs to.
    NO_CLIENT_ID = "no_client_id"
    #: A client id without its secret.
    NO_SECRET = "no_secret"


class OAuth2Refused(SiaError, ValueError):
    """The user's OAuth2 client credentials break a rule (``problem`` says which); a
    ``ValueError`` too, as the settings' other refusals are."""

    kind = "oauth2_refused"

    def __init__(self, problem: OAuth2Problem) -> None:
        super().__init__(problem.value)
        self.problem = problem


def oauth2_credentials(
    client_id: str, secret: str, scopes: Iterable[str], token_url: str, *, bearer: str | None
) -> OAuth2Settings:
    """The OAuth2 client credentials the user gave, by the rules the CLI and the TUI share:
    not beside a bearer token, and a client id with its secret. Raises OAuth2Refused."""
    if bearer:
        raise OAuth2Refused(OAuth2Problem.WITH_BEARER)
    if not client_id:
        raise OAuth2Refused(OAuth2Problem.NO_CLIENT_ID)
    if not secret:
        raise OAuth2Refused(OAuth2Problem.NO_SECRET)
    return OAuth2Settings(
        client_id=client_id, client_secret=secret, scopes=tuple(scopes), token_url=token_url or None
    )


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
    #: API key for the card's ``apiKey`` scheme, sent where the scheme says (``--api-key``).
    api_key: str | None = field(default=None, repr=False)
    #: OAuth2 client credentials: a token is fetched and sent as the bearer (oauth2.py).
    oauth2: OAuth2Settings | None = field(default=None, repr=False)
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
    #: follow the interface URL and the card (``grpc/target.py``; never a silent downgrade).
    grpc_security: Literal["tls", "plaintext"] | None = None
    #: Send a W3C ``traceparent`` (one trace per client, one span per exchange) on every
    #: call, HTTP header or gRPC metadata (``core/trace_context.py``); False sends none.
    trace: bool = True
    #: The user's ``tracestate``, already checked (``checked_tracestate``), passed through
    #: unchanged beside each ``traceparent``.
    tracestate: str | None = None

    @property
    def secret_values(self) -> tuple[tuple[str, str], ...]:
        """Credentials that are neither a header nor the bearer, named for redaction."""
        found = []
        if self.api_key:
            found.append(("api-key", self.api_key))
        if self.oauth2 is not None and self.oauth2.client_secret:
            found.append(("oauth2-client-secret", self.oauth2.client_secret))
        return tuple(found)

    @property
    def has_credentials(self) -> bool:
        """True when the user gave any credential (headers, bearer, key, OAuth2, cert)."""
        return bool(self.headers or self.bearer or self.api_key or self.oauth2 or self.cert)
