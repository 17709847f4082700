"""The exception tree. Each error carries the context a user needs to locate it.

Every error sia-tui raises on purpose is a SiaError. The core's own are defined here; the
others live next to their one user (module in brackets)::

    SiaError
    ├── JsonInputError          untrusted text that is not acceptable JSON (position attached)
    ├── CanonicalizationError   a value RFC 8785 cannot serialize (e.g. an unsafe integer)
    ├── DigestFormatError       a digest string that is not "sha256:" + 64 lowercase hex
    ├── SchemaError             a JSON Schema that is itself invalid
    ├── InvocationLimitReached  a run holds as many invocations as it may (limits)
    ├── TransportError          the exchange failed (refused, timeout, TLS, size, status)
    │   ├── ResponseTooLarge    a body, a decoded layer or an SSE event passed its size limit
    │   ├── EncodingRefused     a Content-Encoding that is unknown or stacked too deep
    │   ├── OriginRefused       a URL whose origin is ambiguous (a port not in ASCII digits)
    │   ├── AuthorizationRefused  the agent answered HTTP 401 or 403 (what was sent attached)
    │   └── RequestTimeout      connect, read or whole-exchange timeout
    │       └── DeadlineExceeded  the run's overall deadline (--deadline) passed
    ├── A2AProtocolError        the peer answered, but not with usable A2A
    ├── FileInputError          a local file that cannot be read, or is not a regular file
    ├── SessionError            a session file cannot be read [core/session/dataclass_json]
    ├── UsageError              a flag value that cannot be used, exit 2 [cli/flags]
    ├── SideError               a compose/diff side cannot be obtained [core/session/document_file]
    ├── PlugfestError           a plugfest file cannot be used, every problem located [core/matrix]
    ├── TrustFileError          a trusted-keys JWKS, signing key or lock cannot be used [core/trust]
    ├── OAuth2Refused           OAuth2 client credentials that break a rule [core/a2a/options]
    ├── TraceStateError         a --tracestate that breaks the W3C syntax [core/trace_context]
    ├── OtlpEndpointRefused     an --otlp-endpoint that cannot be used [core/session/otlp_export]
    ├── ReadOnlySessionError    something tried to send from a recorded session [tui/readonly]
    ├── ThemeFileError          a theme file that is unreadable or not a theme [tui/themes]
    ├── BrokenDraft             a saved argument draft that cannot be read back [tui/storage]
    ├── UnknownFault            a fault name that is not a Fault [agent/faults]
    ├── OperationError          the reference agent answers an A2A-level error [agent/service]
    └── BadRequest              the agent cannot read a request body [agent/app]

``StepFailed``, ``StepEnds`` and ``StepWaits`` [core/engine/outcome] are deliberately outside
the tree: they are how a step ends itself (failed, concluding the run early, or waiting for
a reply), not errors for a caller.
Steps wrap transport calls in ``except SiaError``; were StepFailed a SiaError, such a
handler would swallow it and re-label the failure. The procedure turns it into the step's
result, so it never leaves the engine.

Every class has a ``kind``: a stable snake_case name a failed step carries as its
``error_kind`` (the read model, ``check --json``, the text report, sessions), so a user and
a script can tell a size limit from a timeout.
"""

from __future__ import annotations

#: The root JSON Pointer as shown (``/`` would name the member "", RFC 6901).
ROOT_POINTER = '"" (root)'


class SiaError(Exception):
    """Base class of every error sia-tui raises on purpose."""

    kind = "error"


class InvocationLimitReached(SiaError):
    """A run holds as many invocations as it may (``limits.MAX_INVOCATIONS``)."""

    kind = "limit"


class JsonInputError(SiaError):
    """Text from outside is not acceptable JSON.

    ``line``/``column`` are 1-based positions in the text (when known); ``pointer``
    is the RFC 6901 JSON Pointer of the container where the problem was found.
    """

    kind = "invalid_json"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        offset: int | None = None,
        pointer: str | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.pointer = pointer
        self.source = source
        super().__init__(self.located())

    def located(self) -> str:
        """The message prefixed with where it happened, e.g. ``card.json:3:7: ...``."""
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"{self.line}:{self.column or 1}")
        prefix = ":".join(where)
        at = f" (at {self.pointer})" if self.pointer else ""
        return f"{prefix + ': ' if prefix else ''}{self.message}{at}"


class CanonicalizationError(SiaError):
    """A JSON value cannot be serialized by RFC 8785 (JCS)."""

    kind = "not_canonicalizable"

    def __init__(self, message: str, *, pointer: str | None = None) -> None:
        self.message = message
        self.pointer = pointer
        super().__init__(message if pointer is None else f"{message} (at {pointer})")


class DigestFormatError(SiaError):
    """A digest string is malformed; the message says exactly how."""

    kind = "bad_digest"

    def __init__(self, message: str, *, value: str) -> None:
        self.message = message
        self.value = value
        super().__init__(message)


class SchemaError(SiaError):
    """A JSON Schema is not a valid 2020-12 schema."""

    kind = "invalid_schema"

    def __init__(self, message: str, *, pointer: str = "") -> None:
        self.message = message
        self.pointer = pointer
        super().__init__(f"{message} (at {pointer or ROOT_POINTER})")


class TransportError(SiaError):
    """The HTTP exchange failed before a usable response arrived."""

    kind = "transport"

    def __init__(self, message: str, *, url: str | None = None, status: int | None = None) -> None:
        self.message = message
        self.url = url
        #: The HTTP status of an answer that was not usable (the URL was reached).
        self.status = status
        super().__init__(message if url is None else f"{message} ({url})")


class ResponseTooLarge(TransportError):
    """The response body exceeded the configured limit; the read was aborted."""

    kind = "response_too_large"


class EncodingRefused(TransportError):
    """The response's Content-Encoding is unknown or stacks too many layers; not decoded."""

    kind = "encoding_refused"


class OriginRefused(TransportError):
    """A URL whose origin httpx and urlsplit would read differently: nothing is sent."""

    kind = "origin_refused"


class AuthorizationRefused(TransportError):
    """The agent answered HTTP 401 or 403: an authorization verdict, not a network one.

    ``required`` says what the card requires, ``sent`` the names of the credentials sent
    (never values), ``problem`` why an OAuth2 token was not sent, if so.
    """

    kind = "unauthorized"

    def __init__(
        self, status: int, *, url: str, required: str, sent: str, problem: str = ""
    ) -> None:
        self.status = status
        self.required = required
        self.sent = sent
        self.problem = problem
        refused = "unauthenticated" if status == 401 else "forbidden"
        super().__init__(f"HTTP {status} ({refused}): sent {sent}", url=url)


class RequestTimeout(TransportError):
    """Connecting or reading took longer than the configured timeout."""

    kind = "timeout"


class DeadlineExceeded(RequestTimeout):
    """The run's overall deadline passed; what was running was stopped."""

    kind = "deadline_exceeded"


class FileInputError(SiaError):
    """A local file the user named cannot be read: missing, unreadable, or not a regular
    file (a FIFO or a device would block or never end). ``reason`` says which."""

    kind = "file_unreadable"

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot read {path}: {reason}")


class A2AProtocolError(SiaError):
    """The peer answered with an A2A error or a shape this client cannot read."""

    kind = "a2a_error"

    def __init__(self, message: str, *, code: int | str | None = None) -> None:
        self.message = message
        self.code = code
        super().__init__(message if code is None else f"{message} [{code}]")
