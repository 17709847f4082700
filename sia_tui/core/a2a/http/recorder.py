"""The HTTP layer under the A2A client: bounded, timed, TLS-checked, every exchange recorded."""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

from sia_tui.core.a2a.http.decoding import ACCEPT_ENCODING, BoundedDecoder, content_codings
from sia_tui.core.a2a.http.transport import SchemeTransports
from sia_tui.core.a2a.kept_events import KeptEvents
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.errors import RequestTimeout, ResponseTooLarge, SiaError, TransportError
from sia_tui.core.exchange import CANCELLED, Exchange, Headers
from sia_tui.core.needs import Need, word
from sia_tui.core.trace_context import TraceContext, new_span_id, span_of


class SendableCookies(DefaultCookiePolicy):
    """Keeps only cookies that can be sent back: an agent's Set-Cookie of obs-text bytes
    (U+0080-U+00FF, a C1 control) would otherwise make the next request unbuildable, a
    "sia-tui bug" at whatever step came next (RFC 6265 cookie-octets are ASCII)."""

    def set_ok(self, cookie: Cookie, request: Any) -> bool:
        text = f"{cookie.name}={cookie.value or ''}"
        return text.isascii() and text.isprintable() and super().set_ok(cookie, request)


@dataclass(frozen=True)
class Reply:
    """A complete (bounded) response and the exchange that recorded it."""

    exchange: Exchange
    status: int
    headers: httpx.Headers
    body: bytes

    @property
    def content_type(self) -> str:
        """The media type, lowercased, without parameters."""
        return content_type_of(self.headers)


def content_type_of(headers: httpx.Headers) -> str:
    """The media type, lowercased, without parameters."""
    return str(headers.get("content-type", "")).split(";")[0].strip().lower()


def ssl_context(options: ClientOptions) -> ssl.SSLContext | bool:
    """TLS settings; verification stays on unless the user turned it off."""
    if options.verify is True and options.cert is None:
        return True
    try:
        if isinstance(options.verify, str):
            context = ssl.create_default_context(cafile=options.verify)
        else:
            context = httpx.create_ssl_context(verify=options.verify)
        if options.cert is not None:
            certs = (options.cert,) if isinstance(options.cert, str) else options.cert
            context.load_cert_chain(*certs)
    except (OSError, ssl.SSLError) as exc:
        raise TransportError(f"cannot load TLS files: {exc}") from exc
    return context


def _raw_headers(headers: httpx.Headers) -> Headers:
    return tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in headers.raw)


def translate(exc: Exception, url: str, options: ClientOptions) -> SiaError:
    """httpx/asyncio failures -> the core's TransportError family, naming the limit."""
    if isinstance(exc, SiaError):
        return exc
    if isinstance(exc, httpx.ConnectTimeout):
        return RequestTimeout(
            f"connect timed out after {options.connect_timeout:g} s ({word(Need.CONNECT_TIMEOUT)})",
            url=url,
        )
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeout(
            f"response timed out: no data for {options.read_timeout:g} s ({word(Need.TIMEOUT)})",
            url=url,
        )
    if isinstance(exc, TimeoutError):  # our asyncio.timeout over the whole exchange
        return RequestTimeout(
            f"response timed out: the exchange took longer than {options.total_timeout:g} s "
            "(total_timeout)",
            url=url,
        )
    if _refused(exc):
        # httpx says "All connection attempts failed"; the cause underneath is what a
        # user needs: nothing listens at that address (any more).
        return TransportError("connection refused: nothing answers at this address", url=url)
    return TransportError(f"{type(exc).__name__}: {exc}", url=url)


def _refused(exc: BaseException) -> bool:
    """True when a ConnectionRefusedError is in the exception's cause chain."""
    seen: BaseException | None = exc
    for _ in range(8):  # bounded: a cause chain is short
        if seen is None:
            return False
        if isinstance(seen, ConnectionRefusedError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


#: Rewrites a body before it is recorded: a credential exchange (an OAuth2 token request and
#: its answer) is kept with its secrets already replaced, so no surface can show them.
Scrub = Callable[[bytes], bytes]

#: Idle connections are dropped after this long, safely before a typical 5 s server timeout.
KEEPALIVE_SECONDS = 2.0


class ExchangeRecorder:
    """Sends requests with limits and keeps an immutable Exchange for each, failed or not."""

    def __init__(
        self,
        options: ClientOptions,
        *,
        transport: httpx.AsyncBaseTransport | None,
        on_exchange: Callable[[Exchange], None] | None,
    ) -> None:
        self.options = options
        self.exchanges: list[Exchange] = []
        self._on_exchange = on_exchange
        #: This client's trace: one per run, a span per exchange (None: ``trace`` is off).
        self.trace = TraceContext.new(options.tracestate) if options.trace else None
        timeout = httpx.Timeout(options.read_timeout, connect=options.connect_timeout)
        verify = ssl_context(options)
        # Servers commonly drop idle connections after 5 s (uvicorn's default); reusing
        # one at that moment fails a POST with a bare ReadError. Expire ours first.
        limits = httpx.Limits(keepalive_expiry=KEEPALIVE_SECONDS)
        self._http = httpx.AsyncClient(
            # The TLS context is built on the first https request (transport.py).
            transport=transport
            or SchemeTransports(verify, trust_env=options.trust_env, limits=limits),
            verify=verify,  # for the proxies' transports
            timeout=timeout,
            follow_redirects=False,
            trust_env=options.trust_env,
            # Only what decoding.py undoes, bounded (httpx would add br/zstd if installed).
            headers={"Accept-Encoding": ACCEPT_ENCODING},
            limits=limits,
            cookies=CookieJar(policy=SendableCookies()),
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    def trace_headers(self) -> list[tuple[str, str]]:
        """The trace headers of one new exchange (a new span); [] when tracing is off.
        Every binding adds them where its calls are built: the HTTP request here
        (``build``), the gRPC metadata in ``GrpcBinding.metadata``."""
        return self.trace.headers(new_span_id()) if self.trace is not None else []

    def record(self, **fields: Any) -> Exchange:
        """Append one Exchange (with the span its traceparent named) and pass it on."""
        span = span_of(fields.get("request_headers", ()))
        exchange = Exchange(seq=len(self.exchanges) + 1, span_id=span, **fields)
        self.exchanges.append(exchange)
        if self._on_exchange is not None:
            self._on_exchange(exchange)
        return exchange

    def build(
        self,
        method: str,
        url: str,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        stream: bool = False,
    ) -> httpx.Request:
        """An httpx request; streams get the idle timeout instead of the read timeout."""
        read = self.options.stream_idle_timeout if stream else self.options.read_timeout
        try:
            return self._http.build_request(
                method,
                url,
                headers=[*headers, *self.trace_headers()],
                content=body or None,
                timeout=httpx.Timeout(read, connect=self.options.connect_timeout),
            )
        except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
            raise TransportError(f"invalid URL: {exc}", url=url[:300]) from exc

    async def request(
        self,
        purpose: str,
        request: httpx.Request,
        *,
        scrub: Scrub | None = None,
        max_bytes: int | None = None,
    ) -> Reply:
        """Send and read the whole body, bounded in size, and in time by total_timeout for
        the whole exchange (headers and body together); ``scrub`` rewrites both bodies as
        recorded (the reply keeps the real bytes). ``max_bytes``: a smaller bound of this
        answer's own (a token answer); reading stops past it."""
        async with self.open(purpose, request, whole=True, scrub=scrub) as (response, body):
            await self.read_all(response, body, max_bytes)
        exchange = self.exchanges[-1]
        return Reply(exchange, response.status_code, response.headers, bytes(body))

    async def read_all(
        self, response: httpx.Response, body: bytearray, max_bytes: int | None = None
    ) -> None:
        """Read the body into ``body``, aborting past ``max_response_bytes`` (or the
        smaller ``max_bytes``)."""
        async for chunk in self.chunks(response):
            self.append(body, chunk, max_bytes)

    async def chunks(self, response: httpx.Response) -> AsyncIterator[bytes]:
        """The body as it arrives, content-decoded in bounded pieces (decoding.py)."""
        if response.is_stream_consumed:
            # Built in memory (an injected transport): httpx already holds it decoded.
            yield response.content
            return
        decoder = BoundedDecoder(content_codings(response.headers), self.options.max_response_bytes)
        async for raw in response.aiter_raw():
            for piece in decoder.feed(raw):
                yield piece
        for piece in decoder.flush():
            yield piece

    def append(self, body: bytearray, chunk: bytes, max_bytes: int | None = None) -> None:
        """Add bytes, raising ResponseTooLarge at the limit (the kept part is recorded)."""
        limit = self.options.max_response_bytes
        own = max_bytes is not None and max_bytes < limit
        if max_bytes is not None and own:
            limit = max_bytes
        body += chunk
        if len(body) > limit:
            del body[limit:]
            why = "the most this answer may be" if own else word(Need.MAX_RESPONSE_BYTES)
            raise ResponseTooLarge(f"response larger than {limit} bytes ({why}); read aborted")

    @asynccontextmanager
    async def open(
        self,
        purpose: str,
        request: httpx.Request,
        events: KeptEvents | None = None,
        *,
        whole: bool = False,
        scrub: Scrub | None = None,
    ) -> AsyncIterator[tuple[httpx.Response, bytearray]]:
        """Open a response; on exit the exchange is recorded (with the error, if any).

        ``total_timeout`` bounds the headers and, when ``whole``, everything the caller
        does with the response too (a stream is bounded by its idle timeout instead).
        """
        url = str(request.url)
        started, clock = time.time(), time.perf_counter()
        body = bytearray()
        response: httpx.Response | None = None
        failure: SiaError | None = None
        cancelled = False
        try:
            try:
                async with asyncio.timeout(self.options.total_timeout) as limit:
                    response = await self._http.send(request, stream=True)
                    if not whole:
                        limit.reschedule(None)
                    yield response, body
            except (httpx.HTTPError, httpx.InvalidURL, TimeoutError, SiaError) as exc:
                failure = translate(exc, url, self.options)
                if failure is exc:
                    raise
                raise failure from exc
            except asyncio.CancelledError:
                cancelled = True  # the run's deadline, or the user, stopped this exchange
                raise
        finally:
            if response is not None:
                await response.aclose()
            self.record(
                purpose=purpose,
                method=request.method,
                url=url,
                request_headers=_raw_headers(request.headers),
                request_body=scrub(request.content) if scrub else request.content,
                status=response.status_code if response is not None else None,
                response_headers=_raw_headers(response.headers) if response is not None else (),
                response_body=scrub(bytes(body)) if scrub else bytes(body),
                started_at=started,
                elapsed_ms=(time.perf_counter() - clock) * 1000.0,
                error=str(failure)
                if failure is not None
                else ("cancelled before the exchange ended" if cancelled else None),
                truncated=isinstance(failure, ResponseTooLarge),
                events=events.events() if events is not None else (),
                events_not_kept=events.not_kept if events is not None else 0,
                event_offsets_ms=events.offsets_ms(clock) if events is not None else (),
                error_kind=failure.kind
                if failure is not None
                else (CANCELLED if cancelled else None),
            )
