"""``ClientBase``: the client's state and one recorded call, with credentials and redirects
decided per URL (RULES SR7), and the binding of each interface; the A2A calls
(``client.py``, ``client_tasks.py``, ``client_streams.py``) are written once on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urljoin

import httpx

from sia_tui.core.a2a.auth.authenticator import Authenticator
from sia_tui.core.a2a.binding import Binding
from sia_tui.core.a2a.http.binding import HttpBinding, redirect_refused
from sia_tui.core.a2a.http.codec import Codec, codec_for
from sia_tui.core.a2a.http.recorder import ExchangeRecorder, Reply
from sia_tui.core.a2a.http.wire import http_error
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.origin import Origin, origin_of, origin_text
from sia_tui.core.a2a.views import Interface, ProtocolBinding
from sia_tui.core.constants import EXTENSION_URI, VERSION_HEADER
from sia_tui.core.errors import SiaError, TransportError
from sia_tui.core.exchange import Exchange
from sia_tui.core.jsonkit.strictjson import loads as load_json
from sia_tui.core.needs import Need, word
from sia_tui.core.redaction.issued import IssuedSecrets
from sia_tui.core.redaction.redact import learn_log_secrets
from sia_tui.core.trace_context import TRACEPARENT

if TYPE_CHECKING:  # grpc loads only when a GRPC interface is called
    from sia_tui.core.a2a.grpc.binding import GrpcBinding
    from sia_tui.core.a2a.grpc.calls import GrpcTransport

_MAX_REDIRECTS = 5
#: Bare refusals (no A2A error in the body) that an unknown header can cause: a bad
#: request, or header fields too large.
TRACE_REFUSALS = frozenset({400, 431})


@dataclass(frozen=True)
class FollowUpOf:
    """The task a follow-up message continues (A2A 1.0 section 3.4.3: same taskId; the
    contextId is optional, and the agent must reject one that does not match)."""

    task_id: str
    context_id: str | None = None


def user_message(
    codec: Codec, data: Any, text: str | None, follows: FollowUpOf | None = None
) -> dict[str, Any]:
    """The user message: one text part when ``text`` is given, else one data part."""
    message = codec.make_text_message(text) if text is not None else codec.make_user_message(data)
    if follows is not None:
        message["taskId"] = follows.task_id
        if follows.context_id is not None:
            message["contextId"] = follows.context_id
    return message


class ClientBase:
    """One agent's connection: options, recorded exchanges, credentials per origin, and the
    binding of each interface (``binding.Binding``: HTTP, or gRPC built on first use)."""

    def __init__(
        self,
        options: ClientOptions,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        on_exchange: Callable[[Exchange], None] | None = None,
        grpc_transport: GrpcTransport | None = None,
        issued: IssuedSecrets | None = None,
    ) -> None:
        self.options = options
        #: Secrets fetched during the run (the OAuth2 token): shared with whoever must
        #: redact or mask them (the engine's run, the log filter).
        self.issued = issued if issued is not None else IssuedSecrets()
        # httpx logs request URLs at INFO: the log filter the application installed (if
        # any) scrubs this client's credentials from every record too.
        learn_log_secrets(options)
        self._recorder = ExchangeRecorder(options, transport=transport, on_exchange=on_exchange)
        #: Things the user should know that are not errors (cross-origin interfaces...).
        self.warnings: list[str] = []
        #: What the card's security schemes ask for, sent with the user's credentials.
        self.auth = Authenticator(options, self._recorder, self.warnings, self.issued)
        self._card_origin: Origin | None = None
        self._card_location: str | None = None
        self._warned_origins: set[Origin] = set()
        self._rpc_id = 0
        self._grpc_transport = grpc_transport
        self._grpc_binding: GrpcBinding | None = None
        self._http_binding = HttpBinding(self)

    @property
    def recorder(self) -> ExchangeRecorder:
        """The recorded HTTP layer every exchange goes through (the bindings' too)."""
        return self._recorder

    @property
    def trace_id(self) -> str | None:
        """The W3C trace id every exchange of this client carries (None: tracing is off)."""
        trace = self._recorder.trace
        return trace.trace_id if trace is not None else None

    @property
    def exchanges(self) -> list[Exchange]:
        """Every exchange so far, in order (seq from 1)."""
        return self._recorder.exchanges

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Release the connection pool (and the gRPC channels)."""
        if self._grpc_binding is not None:
            await self._grpc_binding.aclose()
        await self._http_binding.aclose()
        await self._recorder.aclose()

    def binding(self, iface: Interface) -> Binding:
        """The binding that carries ``iface``'s calls: the one place a binding is chosen."""
        return self._grpc() if iface.binding == ProtocolBinding.GRPC else self._http_binding

    def _grpc(self) -> GrpcBinding:
        """The gRPC binding, built (and grpc imported) on the first gRPC call."""
        if self._grpc_binding is None:
            from sia_tui.core.a2a.grpc.binding import GrpcBinding

            self._grpc_binding = GrpcBinding(
                self.options,
                self._recorder,
                transport=self._grpc_transport,
                credentials_allowed=self._credentials_allowed,
                card_location=lambda: self._card_location,
                warnings=self.warnings,
                auth=self.auth,
            )
        return self._grpc_binding

    def next_id(self) -> int:
        """The next JSON-RPC request id (one sequence per client)."""
        self._rpc_id += 1
        return self._rpc_id

    async def call(
        self, purpose: str, method: str, url: str, headers: list[tuple[str, str]], body: bytes = b""
    ) -> Reply:
        """One request; same-origin redirects only when allowed, each hop recorded."""
        for _ in range(_MAX_REDIRECTS + 1):
            reply = await self._recorder.request(
                purpose, self.build_request(method, url, headers, body)
            )
            if reply.status // 100 != 3 or reply.status == 304:
                return reply
            target = urljoin(url, reply.headers.get("location", ""))
            if not self.options.follow_redirects or origin_of(target) != origin_of(url):
                raise redirect_refused(reply.status, target, url)
            if reply.status in (301, 302, 303) and method != "GET":
                method, body = "GET", b""
            url = target
        raise TransportError(f"more than {_MAX_REDIRECTS} redirects", url=url)

    def build_request(
        self,
        method: str,
        url: str,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        stream: bool = False,
    ) -> httpx.Request:
        """The request, with the card's API key or cookie where the origin may have them."""
        allowed = self._credentials_allowed(url)
        query = self.auth.query() if allowed else None
        if query is not None:  # an API key the scheme puts in the query string
            url = str(httpx.URL(url).copy_add_param(*query))
        request = self._recorder.build(method, url, headers, body, stream=stream)
        if not allowed:
            # Cookies the card origin set are credentials too: withheld with the bearer.
            request.headers.pop("Cookie", None)
        elif (cookie := self.auth.cookie()) is not None:
            jar = request.headers.get("Cookie")
            pair = f"{cookie[0]}={cookie[1]}"
            request.headers["Cookie"] = f"{jar}; {pair}" if jar else pair
        return request

    def decode(self, status: int, content_type: str, body: bytes, source: str) -> Any:
        """The response JSON; a non-2xx answer becomes the A2A error it carries, if any."""
        limit, depth = self.options.max_response_bytes, self.options.max_depth
        if status in (401, 403):
            # An authorization verdict, not a network one: what the card requires and what
            # was sent (names only) say whose move it is.
            raise self.auth.refused(status, source)
        if not 200 <= status < 300:
            try:
                payload = load_json(body, source=source, max_bytes=limit, max_depth=depth)
            except SiaError:  # an unreadable error body is reported by its status
                payload = None
            error = http_error(status, content_type, payload)
            if error is not None:
                raise error
            raise TransportError(
                f"HTTP {status}{self._trace_note(status)}", url=source, status=status
            )
        return load_json(body, source=source, max_bytes=limit, max_depth=depth)

    def _trace_note(self, status: int) -> str:
        """Why a bare refusal may be ours: some agents refuse a header they do not know."""
        if self._recorder.trace is None or status not in TRACE_REFUSALS:
            return ""
        return (
            f" (a W3C {TRACEPARENT} trace header was sent, and some agents refuse headers they "
            f"do not know: {word(Need.NO_TRACE)} sends none)"
        )

    def request_headers(
        self,
        version: str,
        url: str,
        codec: Codec | None = None,
        content_type: str | None = None,
        *,
        accept: str | None = None,
    ) -> list[tuple[str, str]]:
        """Version, extensions, content type, then user credentials when the origin allows."""
        headers = [(VERSION_HEADER, version)]
        if self.options.extensions:
            headers += (codec or codec_for(version)).extension_headers(EXTENSION_URI)
        if content_type:
            headers.append(("Content-Type", content_type))
        if accept:
            headers.append(("Accept", accept))
        if self._credentials_allowed(url):
            headers += list(self.options.headers)
            if self.options.bearer:
                headers.append(("Authorization", f"Bearer {self.options.bearer}"))
            headers += self.auth.headers()
        return headers

    def _credentials_allowed(self, url: str) -> bool:
        """User credentials go to the card's origin; elsewhere only when explicitly allowed.

        Origins are compared as httpx connects; an ambiguous port is refused (origin.py).
        """
        target = origin_of(url)
        if self._card_origin is None or target == self._card_origin:
            return True
        if target not in self._warned_origins:
            self._warned_origins.add(target)
            where, home = origin_text(target), origin_text(self._card_origin)
            verdict = (
                "credentials are sent (cross-origin allowed)"
                if self.options.allow_cross_origin
                else "user headers and bearer token are withheld"
            )
            self.warnings.append(
                f"interface origin {where} differs from the card origin {home}: {verdict}"
            )
        return self.options.allow_cross_origin
