"""``A2AClient``: card retrieval and the four A2A calls, each exchange recorded with raw bytes.

The client only requests the card location and the interface URLs of that card; it never
follows a URL an agent names (RULES SR7), and redirects are refused unless same-origin and
allowed by the options.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

import httpx

from sia_tui.core.a2a.authenticator import Authenticator
from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.codec import (
    Codec,
    codec_for,
    read_event,
    read_send,
    read_task,
    read_task_page,
)
from sia_tui.core.a2a.extended_card import PURPOSE as EXTENDED_PURPOSE
from sia_tui.core.a2a.extended_card import extended_card_request
from sia_tui.core.a2a.model import (
    GRPC,
    AgentCard,
    Interface,
    Message,
    StreamEvent,
    Task,
    TaskPage,
)
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.origin import Origin, origin_of, origin_text
from sia_tui.core.a2a.recorder import ExchangeRecorder, Reply, content_type_of
from sia_tui.core.a2a.sse import SSEEvent, SSEParser
from sia_tui.core.a2a.wire import WireRequest, http_error, jsonrpc_error, unwrap_jsonrpc
from sia_tui.core.constants import CARD_PATHS, EXTENSION_URI, VERSION_HEADER
from sia_tui.core.errors import (
    A2AProtocolError,
    FileInputError,
    ResponseTooLarge,
    SiaError,
    TransportError,
)
from sia_tui.core.exchange import Exchange
from sia_tui.core.jsonkit.strictjson import loads as load_json
from sia_tui.core.local_file import read_regular_file
from sia_tui.core.redaction.issued import IssuedSecrets
from sia_tui.core.redaction.redact import learn_log_secrets

if TYPE_CHECKING:  # grpc loads only when a GRPC interface is called
    from sia_tui.core.a2a.grpc_calls import GrpcTransport
    from sia_tui.core.a2a.grpc_client import GrpcBinding

_MAX_REDIRECTS = 5


@dataclass(frozen=True)
class FollowUpOf:
    """The task a follow-up message continues (A2A 1.0 section 3.4.3: same taskId; the
    contextId is optional, and the agent must reject one that does not match)."""

    task_id: str
    context_id: str | None = None


def _user_message(
    codec: Codec, data: Any, text: str | None, follows: FollowUpOf | None = None
) -> dict[str, Any]:
    """The user message: one text part when ``text`` is given, else one data part."""
    message = codec.make_text_message(text) if text is not None else codec.make_user_message(data)
    if follows is not None:
        message["taskId"] = follows.task_id
        if follows.context_id is not None:
            message["contextId"] = follows.context_id
    return message


def _redirect_refused(status: int, target: str, url: str) -> TransportError:
    """RULES SR7: a redirect names a URL the user did not give; say where, do not go."""
    return TransportError(f"HTTP {status} redirect to {target[:300]!r} was not followed", url=url)


@dataclass(frozen=True)
class CardFetch:
    """A retrieved card, where it came from, and the exchange that carried it."""

    card: AgentCard
    url: str
    exchange: Exchange


class A2AClient:
    """Talks A2A 1.0 (and 0.3) to one agent; every exchange lands in ``exchanges``."""

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

    @property
    def exchanges(self) -> list[Exchange]:
        """Every exchange so far, in order (seq from 1)."""
        return self._recorder.exchanges

    async def __aenter__(self) -> A2AClient:
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
        await self._recorder.aclose()

    def _grpc(self) -> GrpcBinding:
        """The gRPC binding, built (and grpc imported) on the first gRPC call."""
        if self._grpc_binding is None:
            from sia_tui.core.a2a.grpc_client import GrpcBinding

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

    # -- the card ---------------------------------------------------------------------------

    async def fetch_card(self, location: str) -> CardFetch:
        """A base URL (well-known paths, agent.json on 404), a ``.json`` URL, or a local file."""
        scheme, sep, _ = location.partition("://")
        if not sep:
            return self._card_from_file(location)
        if scheme.lower() not in ("http", "https"):
            raise TransportError(
                f"unsupported URL scheme {scheme!r}: use http or https, or a local card file",
                url=location,
            )
        try:
            host = urlsplit(location).hostname
        except ValueError as exc:
            raise TransportError(f"not a valid URL: {exc}", url=location) from None
        if not host:
            raise TransportError("the URL has no host", url=location)
        self.bind_card_location(location)
        if urlsplit(location).path.endswith(".json"):
            candidates = [location]
        else:
            candidates = [location.rstrip("/") + path for path in CARD_PATHS]
        for index, url in enumerate(candidates):
            reply = await self._call("agent card", "GET", url, self._headers("1.0", url))
            if reply.status != 404 or index == len(candidates) - 1:
                break
        payload = self._payload(reply)
        final_url = str(reply.exchange.url)
        card = parse_card(payload, source_url=final_url)
        self.auth.use_card(card, self._card_location)
        return CardFetch(card, final_url, reply.exchange)

    def _card_from_file(self, location: str) -> CardFetch:
        path = Path(location).expanduser()
        limit = self.options.max_response_bytes
        started = time.time()
        try:
            data = read_regular_file(path, limit).data
        except FileInputError as exc:  # a FIFO too: refused, never waited on
            self._recorder.record(
                purpose="agent card",
                method="FILE",
                url=str(path),
                request_headers=(),
                request_body=b"",
                started_at=started,
                error=f"cannot read: {exc.reason}",
            )
            raise TransportError(f"cannot read card file: {exc.reason}", url=str(path)) from None
        too_large = len(data) > limit
        exchange = self._recorder.record(
            purpose="agent card",
            method="FILE",
            url=str(path),
            request_headers=(),
            request_body=b"",
            response_body=data[:limit],
            started_at=started,
            error=f"file larger than {limit} bytes" if too_large else None,
            truncated=too_large,
        )
        if too_large:
            raise ResponseTooLarge(f"card file larger than {limit} bytes", url=str(path))
        self.bind_card_location(str(path))
        payload = load_json(
            data, source=str(path), max_bytes=limit, max_depth=self.options.max_depth
        )
        card = parse_card(payload)
        self.auth.use_card(card, None)
        return CardFetch(card, str(path), exchange)

    def bind_card_location(self, location: str, card: AgentCard | None = None) -> None:
        """Credentials go to this card location's origin; elsewhere only when allowed (SR7).

        The card location is the user's choice. A local card file is trusted like a user
        setting: there is no origin to compare interfaces with. A client that did not fetch
        the card itself (the probe's) binds the location the card came from, and the card
        (whose security schemes say which credentials go where).
        """
        self._card_origin = origin_of(location) if "://" in location else None
        self._card_location = location
        if card is not None:
            self.auth.use_card(card, location if "://" in location else None)

    # -- A2A calls --------------------------------------------------------------------------

    def trust_card_origin(self, location: str) -> None:
        """Credentials go to ``location``'s origin only, as after ``fetch_card(location)``
        (a client that did not fetch the card itself; a local card file trusts any origin)."""
        self._card_origin = origin_of(location) if "://" in location else None
        self._card_location = location

    async def send(
        self,
        iface: Interface,
        data: Any = None,
        *,
        purpose: str,
        return_immediately: bool = False,
        text: str | None = None,
        follows: FollowUpOf | None = None,
        push: dict[str, Any] | None = None,
    ) -> Task | Message:
        """SendMessage with one user data part (or, given ``text``, one text part); the
        answer as a Task or Message. ``follows`` names the task a follow-up continues.

        By default the agent answers when the task is final; ``return_immediately`` (poll
        mode) asks for the task as soon as it exists. ``push`` (``{url, token}``) registers
        a webhook for the task in the same request.
        """
        codec = codec_for(iface.dialect)
        message = _user_message(codec, data, text, follows)
        if iface.binding == GRPC:
            answer = await self._grpc().send(iface, message, purpose, return_immediately, push)
            return read_send(answer, jsonrpc=False)
        wire = codec.build(
            iface,
            "send",
            rpc_id=self._next_id(),
            message=message,
            return_immediately=return_immediately,
            push=push,
        )
        payload = await self._wire_call(purpose, codec, wire)
        return read_send(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)

    async def extended_card(self, iface: Interface) -> AgentCard:
        """GetExtendedAgentCard (JSON-RPC or HTTP+JSON), sent with the user's credentials."""
        if iface.binding == GRPC:
            raise A2AProtocolError("the extended card is fetched over JSON-RPC or HTTP+JSON only")
        wire = extended_card_request(iface, self._next_id())
        payload = await self._wire_call(EXTENDED_PURPOSE, codec_for(iface.dialect), wire)
        return parse_card(
            unwrap_jsonrpc(payload) if wire.jsonrpc else payload, source_url=iface.url
        )

    async def get_task(self, iface: Interface, task_id: str, *, purpose: str = "get task") -> Task:
        """GetTask."""
        if iface.binding == GRPC:
            return read_task(await self._grpc().get_task(iface, task_id, purpose), jsonrpc=False)
        codec = codec_for(iface.dialect)
        wire = codec.build(iface, "get", rpc_id=self._next_id(), task_id=task_id)
        payload = await self._wire_call(purpose, codec, wire)
        return read_task(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)

    async def list_tasks(
        self,
        iface: Interface,
        *,
        page_size: int = 50,
        page_token: str | None = None,
        purpose: str = "list tasks",
    ) -> TaskPage:
        """ListTasks (A2A 1.0): one page of the agent's tasks; 0.3 has none (refused here)."""
        if iface.binding == GRPC:
            answer = await self._grpc().list_tasks(iface, page_size, page_token, purpose)
            return read_task_page(answer, jsonrpc=False)
        codec = codec_for(iface.dialect)
        wire = codec.build_list(
            iface, rpc_id=self._next_id(), page_size=page_size, page_token=page_token
        )
        payload = await self._wire_call(purpose, codec, wire)
        return read_task_page(payload, jsonrpc=wire.jsonrpc)

    async def cancel(self, iface: Interface, task_id: str, *, purpose: str = "cancel") -> Task:
        """CancelTask."""
        if iface.binding == GRPC:
            return read_task(await self._grpc().cancel(iface, task_id, purpose), jsonrpc=False)
        codec = codec_for(iface.dialect)
        wire = codec.build(iface, "cancel", rpc_id=self._next_id(), task_id=task_id)
        payload = await self._wire_call(purpose, codec, wire)
        return read_task(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)

    async def poll(
        self, iface: Interface, task_id: str, *, until: Callable[[Task], bool] | None = None
    ) -> Task:
        """GetTask until ``until(task)`` (default: terminal/interrupted), at most ``poll_max``
        calls; the last Task read."""
        done = until or (lambda task: task.terminal)
        interval = min(max(self.options.poll_interval, 0.0), 30.0)
        task = await self.get_task(iface, task_id, purpose="poll")
        for _ in range(max(self.options.poll_max, 1) - 1):
            if done(task):
                break
            await asyncio.sleep(interval)
            task = await self.get_task(iface, task_id, purpose="poll")
        return task

    async def stream(
        self,
        iface: Interface,
        data: Any = None,
        *,
        purpose: str,
        text: str | None = None,
        follows: FollowUpOf | None = None,
        push: dict[str, Any] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """SendStreamingMessage (one data part, or one text part given ``text``; continuing
        the task ``follows`` names): events as they arrive, until a final one or the end;
        ``push`` as for ``send``."""
        codec = codec_for(iface.dialect)
        message = _user_message(codec, data, text, follows)
        if iface.binding == GRPC:
            events = self._grpc_events(self._grpc().stream(iface, message, purpose, push))
        else:
            wire = codec.build(iface, "stream", rpc_id=self._next_id(), message=message, push=push)
            events = self._sse(purpose, codec, wire)
        async with aclosing(events) as reading:
            async for event in reading:
                yield event

    async def subscribe(
        self, iface: Interface, task_id: str, *, purpose: str = "subscribe"
    ) -> AsyncIterator[StreamEvent]:
        """SubscribeToTask (0.3: ``tasks/resubscribe``): the task, then its events until a
        final one."""
        if iface.binding == GRPC:
            events = self._grpc_events(self._grpc().subscribe(iface, task_id, purpose))
        else:
            codec = codec_for(iface.dialect)
            wire = codec.build(iface, "subscribe", rpc_id=self._next_id(), task_id=task_id)
            events = self._sse(purpose, codec, wire)
        # Closed here, not when collected: the exchange is recorded as the call ends.
        async with aclosing(events) as reading:
            async for event in reading:
                yield event

    async def _sse(
        self, purpose: str, codec: Codec, wire: WireRequest
    ) -> AsyncGenerator[StreamEvent, None]:
        """An HTTP event stream read as events, until a final one or the stream ends (an
        answer that is not a stream is read as the one event, or the error, it carries)."""
        await self.auth.prepare()
        headers = self._headers(
            codec.version, wire.url, codec, wire.content_type, accept="text/event-stream"
        )
        request = self._build(wire.method, wire.url, headers, wire.body, stream=True)
        events: list[bytes] = []
        async with self._recorder.open(purpose, request, events) as (response, body):
            content_type = response.headers.get("content-type", "").lower()
            if response.is_redirect:  # streams never follow redirects (RULES SR7)
                target = urljoin(wire.url, response.headers.get("location", ""))
                raise _redirect_refused(response.status_code, target, wire.url)
            if not response.is_success or "text/event-stream" not in content_type:
                await self._recorder.read_all(response, body)
                payload = self._decode(
                    response.status_code, content_type_of(response.headers), bytes(body), wire.url
                )
                yield read_event(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)
                return
            parser = SSEParser(max_event_bytes=self.options.max_event_bytes)
            async for chunk in self._recorder.chunks(response):
                self._recorder.append(body, chunk)
                for sse in parser.feed(chunk):
                    events.append(sse.data)
                    event = self._event(sse, wire)
                    yield event
                    if event.final:
                        return  # the task ended; do not wait for the server to close
            for sse in parser.close():
                events.append(sse.data)
                yield self._event(sse, wire)

    # -- helpers ----------------------------------------------------------------------------

    async def _grpc_events(
        self, messages: AsyncGenerator[Any, None]
    ) -> AsyncGenerator[StreamEvent, None]:
        """StreamResponses read as events, until a final one (the call is then closed)."""
        try:
            async for payload in messages:
                event = read_event(payload, jsonrpc=False)
                yield event
                if event.final:
                    return
        finally:
            await messages.aclose()

    def _next_id(self) -> int:
        self._rpc_id += 1
        return self._rpc_id

    def _event(self, sse: SSEEvent, wire: WireRequest) -> StreamEvent:
        payload = load_json(
            sse.data,
            source=f"{wire.url} (SSE event)",
            max_bytes=self.options.max_event_bytes,
            max_depth=self.options.max_depth,
        )
        if sse.is_error:  # sse-starlette sends a mid-stream failure as `event: error`
            error = payload.get("error", payload) if isinstance(payload, dict) else payload
            raise jsonrpc_error(error)
        return read_event(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)

    async def _wire_call(self, purpose: str, codec: Codec, wire: WireRequest) -> Any:
        await self.auth.prepare()
        headers = self._headers(codec.version, wire.url, codec, wire.content_type)
        reply = await self._call(purpose, wire.method, wire.url, headers, wire.body)
        if reply.status == 401 and self.auth.refresh():
            # An expired or revoked token: one new token, one retry, never a loop.
            await self.auth.prepare()
            headers = self._headers(codec.version, wire.url, codec, wire.content_type)
            reply = await self._call(purpose, wire.method, wire.url, headers, wire.body)
        payload = self._payload(reply)
        if wire.jsonrpc and isinstance(payload, dict) and payload.get("id") != wire.rpc_id:
            # Forgiven (the answer is still read) but shown: a proxy or agent mixed up replies.
            self.warnings.append(
                f"JSON-RPC response id {payload.get('id')!r} does not match "
                f"request id {wire.rpc_id} (exchange {reply.exchange.seq})"
            )
        return payload

    async def _call(
        self, purpose: str, method: str, url: str, headers: list[tuple[str, str]], body: bytes = b""
    ) -> Reply:
        """One request; same-origin redirects only when allowed, each hop recorded."""
        for _ in range(_MAX_REDIRECTS + 1):
            reply = await self._recorder.request(purpose, self._build(method, url, headers, body))
            if reply.status // 100 != 3 or reply.status == 304:
                return reply
            target = urljoin(url, reply.headers.get("location", ""))
            if not self.options.follow_redirects or origin_of(target) != origin_of(url):
                raise _redirect_refused(reply.status, target, url)
            if reply.status in (301, 302, 303) and method != "GET":
                method, body = "GET", b""
            url = target
        raise TransportError(f"more than {_MAX_REDIRECTS} redirects", url=url)

    def _build(
        self,
        method: str,
        url: str,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        stream: bool = False,
    ) -> httpx.Request:
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

    def _payload(self, reply: Reply) -> Any:
        return self._decode(reply.status, reply.content_type, reply.body, reply.exchange.url)

    def _decode(self, status: int, content_type: str, body: bytes, source: str) -> Any:
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
            raise TransportError(f"HTTP {status}", url=source)
        return load_json(body, source=source, max_bytes=limit, max_depth=depth)

    def _headers(
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
