"""The gRPC binding behind ``A2AClient`` (``binding.Binding``): each call recorded like an
HTTP exchange.

The client hands over the same JSON it would send over JSON-RPC; the ProtoJSON objects
that come back are read by the 1.0 readers. Service parameters travel as lowercase metadata
(A2A 1.0 section 10.2): ``a2a-version``, ``a2a-extensions`` (RULES ADV5), then the user's
headers and bearer when the target's origin may have them (RULES SR7). Timeouts, size
limits and cancellation are the HTTP client's: ``--timeout`` bounds a unary call,
``--max-response-bytes`` a message (and a stream), the idle timeout each stream message.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.binding import TaskOperation
from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.a2a.grpc.calls import GrpcAnswer, GrpcStream, GrpcTransport
from sia_tui.core.a2a.grpc.status import grpc_error, status_json
from sia_tui.core.a2a.grpc.target import GrpcTarget, card_transport, grpc_target
from sia_tui.core.a2a.http.codec import read_event, read_send, read_task, read_task_page
from sia_tui.core.a2a.http.recorder import ExchangeRecorder
from sia_tui.core.a2a.kept_events import KeptEvents
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.origin import origin_text
from sia_tui.core.a2a.task_views import Message, StreamEvent, Task, TaskPage
from sia_tui.core.a2a.views import Interface
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.errors import (
    A2AProtocolError,
    RequestTimeout,
    ResponseTooLarge,
    SiaError,
    TransportError,
)
from sia_tui.core.exchange import CANCELLED, Headers
from sia_tui.core.jsonkit.strictjson import loads as load_json
from sia_tui.core.needs import Need, word

if TYPE_CHECKING:
    from sia_tui.core.a2a.auth.authenticator import Authenticator

#: gRPC UNAUTHENTICATED and PERMISSION_DENIED, as the HTTP status each stands for.
_REFUSED = {16: 401, 7: 403}

#: Seconds a stream may take to end after the task's final event before it is cancelled.
END_GRACE = 1.0
_KEY = re.compile(r"[0-9a-z_.-]+\Z")
_CANCELLED = "cancelled before the exchange ended"


def _send_request(
    message: dict[str, Any], return_immediately: bool, push: dict[str, Any] | None
) -> dict[str, Any]:
    """A SendMessageRequest: the message, and a configuration only when something is set."""
    configuration: dict[str, Any] = {}
    if return_immediately:
        configuration["returnImmediately"] = True
    if push is not None:
        configuration["taskPushNotificationConfig"] = push
    request: dict[str, Any] = {"message": message}
    if configuration:
        request["configuration"] = configuration
    return request


def _checked(key: str, value: str) -> tuple[str, str]:
    """One metadata pair: a lowercase key and a printable ASCII value (gRPC's rules)."""
    key = key.strip().lower()
    if not _KEY.match(key) or key.startswith("grpc-") or key.endswith("-bin"):
        raise TransportError(f"header {key[:60]!r} cannot travel as gRPC metadata")
    if not (value.isascii() and value.isprintable()):
        raise TransportError(f"the value of header {key!r} is not printable ASCII (gRPC)")
    return key, value


class GrpcBinding:
    """SendMessage, SendStreamingMessage, GetTask, CancelTask, ListTasks and SubscribeToTask
    over gRPC: the ``Binding`` of a GRPC interface."""

    def __init__(
        self,
        options: ClientOptions,
        recorder: ExchangeRecorder,
        *,
        transport: GrpcTransport | None,
        credentials_allowed: Callable[[str], bool],
        card_location: Callable[[], str | None],
        warnings: list[str],
        auth: Authenticator | None = None,
    ) -> None:
        self.options = options
        self._recorder = recorder
        if transport is None:  # grpc loads here: a replayed session needs none of it
            from sia_tui.core.a2a.grpc.channel import AioTransport

            transport = AioTransport(options)
        self._transport = transport
        self._allowed = credentials_allowed
        self._card_location = card_location
        self._warnings = warnings
        self._warned: set[GrpcTarget] = set()
        #: The card's schemes: an OAuth2 token or a header API key joins the metadata.
        self._auth = auth

    async def aclose(self) -> None:
        """Close the channels."""
        await self._transport.aclose()

    def target(self, iface: Interface) -> GrpcTarget:
        """Where ``iface`` is, TLS or not (grpc/target.py); plaintext for a card that came
        over TLS is noted once (the user did not choose it, the card's URL did)."""
        location = self._card_location()
        target = grpc_target(iface.url, location, self.options.grpc_security)
        card_tls, card_came = card_transport(location)
        if not target.tls and card_tls and target not in self._warned:
            self._warned.add(target)
            self._warnings.append(
                f"gRPC to {target.address} without TLS: {target.reason}, though "
                f"{card_came} ({word(Need.GRPC_TLS)} insists on TLS)"
            )
        return target

    def metadata(self, target: GrpcTarget) -> Headers:
        """Version, extension activation, then the user's credentials if the origin allows
        (only asked when there are credentials: a gRPC port is usually another origin),
        then the exchange's trace headers (a new span each call)."""
        pairs = [("a2a-version", "1.0")]
        if self.options.extensions:
            pairs.append(("a2a-extensions", EXTENSION_URI))
        extra = self._auth.headers() if self._auth is not None else []
        credentials = bool(self.options.headers or self.options.bearer or extra)
        if credentials and self._allowed(origin_text(target.origin)):
            pairs += [_checked(k, v) for k, v in self.options.headers]
            if self.options.bearer:
                pairs.append(_checked("authorization", f"Bearer {self.options.bearer}"))
            pairs += [_checked(k.lower(), v) for k, v in extra]
        return (*pairs, *self._recorder.trace_headers())

    # -- calls ------------------------------------------------------------------------------

    async def send(
        self,
        iface: Interface,
        message: dict[str, Any],
        purpose: str,
        return_immediately: bool,
        push: dict[str, Any] | None,
    ) -> Task | Message:
        """SendMessage: the ``SendMessageResponse`` (ProtoJSON) read as a Task or Message."""
        request = _send_request(message, return_immediately, push)
        answer = await self._unary(purpose, iface, "SendMessage", "SendMessageRequest", request)
        return read_send(answer, jsonrpc=False)

    async def task_call(
        self, operation: TaskOperation, iface: Interface, task_id: str, purpose: str
    ) -> Task:
        """GetTask or CancelTask: the Task (ProtoJSON) the agent answers with."""
        method = "GetTask" if operation == "get" else "CancelTask"
        request = {"id": task_id}
        answer = await self._unary(purpose, iface, method, f"{method}Request", request)
        return read_task(answer, jsonrpc=False)

    async def list_tasks(
        self, iface: Interface, page_size: int, page_token: str | None, purpose: str
    ) -> TaskPage:
        """ListTasks: the ``ListTasksResponse`` (ProtoJSON) read as a page."""
        # With their artifacts, as over the HTTP bindings (A2A 1.0 leaves them out unless asked).
        request: dict[str, Any] = {"pageSize": page_size, "includeArtifacts": True}
        if page_token:
            request["pageToken"] = page_token
        answer = await self._unary(purpose, iface, "ListTasks", "ListTasksRequest", request)
        return read_task_page(answer, jsonrpc=False)

    def stream(
        self,
        iface: Interface,
        message: dict[str, Any],
        purpose: str,
        push: dict[str, Any] | None,
    ) -> AsyncGenerator[StreamEvent, None]:
        """SendStreamingMessage: each ``StreamResponse`` read as an event."""
        request = _send_request(message, False, push)
        return _events(
            self._stream(purpose, iface, "SendStreamingMessage", "SendMessageRequest", request)
        )

    def subscribe(
        self, iface: Interface, task_id: str, purpose: str
    ) -> AsyncGenerator[StreamEvent, None]:
        """SubscribeToTask: the task, then each ``StreamResponse``, read as events."""
        request = {"id": task_id}
        return _events(
            self._stream(purpose, iface, "SubscribeToTask", "SubscribeToTaskRequest", request)
        )

    async def extended_card(self, iface: Interface, purpose: str) -> Any:
        """GetExtendedAgentCard is not a gRPC call sia-tui makes: refused, nothing sent."""
        raise A2AProtocolError("the extended card is fetched over JSON-RPC or HTTP+JSON only")

    # -- plumbing ---------------------------------------------------------------------------

    def _prepare(
        self, iface: Interface, kind: str, request: dict[str, Any]
    ) -> tuple[GrpcTarget, Headers, bytes, bytes]:
        target = self.target(iface)
        if iface.tenant:
            request = {**request, "tenant": iface.tenant}  # A2A 1.0 section 8.3.2
        data = pb.encode(kind, request)
        # Recorded as protobuf carried it (80 went as 80.0), not as it was asked for.
        return target, self.metadata(target), data, pb.json_bytes(pb.decode(kind, data))

    def _json(self, text: bytes, source: str) -> Any:
        limit = self.options.max_response_bytes
        return load_json(text, source=source, max_bytes=2 * limit, max_depth=self.options.max_depth)

    async def _unary(
        self, purpose: str, iface: Interface, method: str, kind: str, request: dict[str, Any]
    ) -> Any:
        if self._auth is not None:
            await self._auth.prepare()
        target, metadata, data, shown = self._prepare(iface, kind, request)
        url = target.url(method)
        record = _Record(self._recorder, purpose, url, metadata, shown, len(data))
        body: bytes | None = None
        try:
            async with asyncio.timeout(self.options.total_timeout):
                body, answer = await self._transport.unary(
                    target, method, data, metadata, self.options.read_timeout
                )
            record.answer = answer
            if answer.code != 0 or body is None:
                status = status_json(answer.code, answer.message, answer.details_bin)
                record.body = pb.json_bytes(status)
                if answer.code in _REFUSED and self._auth is not None:
                    raise self._auth.refused(_REFUSED[answer.code], url)
                raise grpc_error(status, f"/{url.split('/', 3)[3]}")
            record.sizes.append(len(body))
            record.body = body  # kept raw if it is not a valid message
            text = pb.json_bytes(pb.decode(pb.RESPONSES[method], body))
            record.body = text
            return self._json(text, url)
        except TimeoutError:
            record.error = (
                f"response timed out: the exchange took longer than "
                f"{self.options.total_timeout:g} s (total_timeout)"
            )
            record.error_kind = RequestTimeout.kind
            raise RequestTimeout(record.error, url=url) from None
        except SiaError as exc:
            record.error = record.error or str(exc)
            record.error_kind = exc.kind
            record.truncated = isinstance(exc, ResponseTooLarge)  # aborted at the limit
            raise
        except asyncio.CancelledError:
            # The run's deadline, or the user, stopped it: a replay ends it the same way.
            record.error, record.error_kind = _CANCELLED, CANCELLED
            raise
        finally:
            record.save()

    async def _stream(
        self, purpose: str, iface: Interface, method: str, kind: str, request: dict[str, Any]
    ) -> AsyncGenerator[Any, None]:
        if self._auth is not None:
            await self._auth.prepare()
        target, metadata, data, shown = self._prepare(iface, kind, request)
        url = target.url(method)
        record = _Record(self._recorder, purpose, url, metadata, shown, len(data))
        call: GrpcStream | None = None
        ended = False
        try:
            call = await self._transport.stream(target, method, data, metadata)
            while (message := await self._read(call, record)) is not None:
                payload = self._json(message, f"{url} (stream message)")
                yield payload
            ended = True
            await self._finish(call, record)
        except GeneratorExit:
            # The caller has the final event: let the server end the call, briefly.
            if call is not None:
                ended = await self._drain(call, record)
            raise
        except SiaError as exc:
            record.error = record.error or str(exc)
            record.error_kind = exc.kind
            raise
        except asyncio.CancelledError:
            # The run's deadline, or the user, stopped it: a replay ends it the same way.
            record.error, record.error_kind = _CANCELLED, CANCELLED
            raise
        finally:
            if call is not None and not ended:
                call.cancel()
            record.save()

    async def _read(self, call: GrpcStream, record: _Record) -> bytes | None:
        """The next message as ProtoJSON text (recorded), within the limits."""
        try:
            async with asyncio.timeout(self.options.stream_idle_timeout):
                data = await call.read()
        except TimeoutError:
            raise RequestTimeout(
                f"stream idle for {self.options.stream_idle_timeout:g} s (stream_idle_timeout)",
                url=record.url,
            ) from None
        if data is None:
            return None
        record.streamed_sizes.add(b"", len(data))
        # A running total: summing every size again per message made a stream of tiny
        # messages quadratic (83,000 messages ran 20 s past the run's deadline).
        record.streamed += len(data)
        if len(data) > self.options.max_event_bytes or record.streamed > (
            self.options.max_response_bytes
        ):
            record.truncated = True
            raise ResponseTooLarge(
                f"stream message of {len(data)} bytes over the event or response size limit",
                url=record.url,
            )
        text = pb.json_bytes(pb.decode("StreamResponse", data))
        record.events.add(text)
        return text

    async def _finish(self, call: GrpcStream, record: _Record) -> None:
        answer = await call.finish()
        record.answer = answer
        if answer.code != 0:
            status = status_json(answer.code, answer.message, answer.details_bin)
            record.body = pb.json_bytes(status)
            raise grpc_error(status, f"/{record.url.split('/', 3)[3]}")

    async def _drain(self, call: GrpcStream, record: _Record) -> bool:
        """Read what the server still sends, for END_GRACE at most: True once it ended."""
        try:
            async with asyncio.timeout(END_GRACE):
                while await self._read(call, record) is not None:
                    pass
                record.answer = await call.finish()
        except (TimeoutError, SiaError):
            record.error = record.error or (
                "the stream stayed open after the task's final event; cancelled"
            )
            return False
        return True


async def _events(messages: AsyncGenerator[Any, None]) -> AsyncGenerator[StreamEvent, None]:
    """StreamResponses read as events, until a final one (the call is then closed)."""
    try:
        async for payload in messages:
            event = read_event(payload, jsonrpc=False)
            yield event
            if event.final:
                return
    finally:
        await messages.aclose()


class _Record:
    """What one gRPC exchange records, filled in as the call goes, saved once."""

    def __init__(
        self,
        recorder: ExchangeRecorder,
        purpose: str,
        url: str,
        metadata: Headers,
        request: bytes,
        request_size: int,
    ) -> None:
        self.recorder, self.purpose, self.url = recorder, purpose, url
        self.metadata, self.request = metadata, request
        #: The request's size; a unary answer's size follows it.
        self.sizes = [request_size]
        #: Bytes of the messages the server streamed so far.
        self.streamed = 0
        #: A stream's messages as ProtoJSON, and the size of each message that arrived:
        #: bounded as every binding's events are.
        self.events, self.streamed_sizes = KeptEvents(), KeptEvents()
        self.body = b""
        self.answer: GrpcAnswer | None = None
        self.error: str | None = None
        #: The failure's ``SiaError.kind`` (or ``CANCELLED``), as ``Exchange.error_kind``.
        self.error_kind: str | None = None
        self.truncated = False
        self.started, self.clock = time.time(), time.perf_counter()

    def save(self) -> None:
        answer = self.answer
        status_pairs: Headers = ()
        if answer is not None:
            status_pairs = (("grpc-status", str(answer.code)), ("grpc-message", answer.message))
        self.recorder.record(
            purpose=self.purpose,
            method="GRPC",
            url=self.url,
            request_headers=self.metadata,
            request_body=self.request,
            status=answer.code if answer is not None else None,
            response_headers=(*answer.metadata, *status_pairs) if answer is not None else (),
            response_body=self.body,
            started_at=self.started,
            elapsed_ms=(time.perf_counter() - self.clock) * 1000.0,
            error=self.error,
            error_kind=self.error_kind,
            truncated=self.truncated,
            events=self.events.events(),
            events_not_kept=self.events.not_kept,
            event_offsets_ms=self.events.offsets_ms(self.clock),
            message_sizes=(*self.sizes, *self.streamed_sizes.sizes()),
        )
