"""Replay over gRPC: the recorded calls answered again, without a network (and without grpc).

A recorded gRPC exchange holds each message as ProtoJSON and its status; serving it again
means encoding that ProtoJSON back into the message the client reads (doubles stay the
doubles they were), or rebuilding the status and its ``ErrorInfo``. A recorded body that
never was a message (an agent's garbage) is served as the bytes it was.
"""

from __future__ import annotations

import json
from collections import defaultdict, deque

from sia_tui.core.a2a.grpc import messages as pb
from sia_tui.core.a2a.grpc.calls import GrpcAnswer, GrpcStream
from sia_tui.core.a2a.grpc.target import GrpcTarget
from sia_tui.core.errors import A2AProtocolError, TransportError
from sia_tui.core.exchange import Exchange, Headers
from sia_tui.core.session.grpc_recorded import recorded_status
from sia_tui.core.session.recorded_ending import recorded_ending

#: Recorded trailers that describe the status, rebuilt from the recorded body instead.
_STATUS_KEYS = frozenset({"grpc-status", "grpc-message", "grpc-status-details-bin"})


def recorded_message(kind: str, recorded: bytes) -> bytes:
    """A recorded ProtoJSON message as the protobuf bytes it arrived as."""
    try:
        return pb.encode(kind, json.loads(recorded))
    except (ValueError, RecursionError, A2AProtocolError):
        return recorded  # it was not a message when it arrived either


def recorded_answer(ex: Exchange) -> GrpcAnswer:
    """How a recorded call ended: its status, message, metadata and details."""
    assert ex.status is not None
    metadata = tuple((k, v) for k, v in ex.response_headers if k.lower() not in _STATUS_KEYS)
    if ex.status == 0:
        return GrpcAnswer(0, "", metadata)
    # Loading the session checked it (``check_grpc_exchange``): this does not fail.
    message, details_bin = recorded_status(ex.status, ex.response_body)
    return GrpcAnswer(ex.status, message, metadata, details_bin)


class _Replayed:
    """A recorded stream: its messages, then its status."""

    def __init__(self, ex: Exchange, kind: str) -> None:
        self._messages = deque(recorded_message(kind, event) for event in ex.events)
        self._ex = ex

    async def read(self) -> bytes | None:
        if self._messages:
            return self._messages.popleft()
        # What ended the stream live after these messages (the run's deadline, a size
        # limit, a timeout) ends it here too, before any status is asked for.
        ending = recorded_ending(self._ex)
        if ending is not None:
            raise ending
        return None

    async def finish(self) -> GrpcAnswer:
        if self._ex.status is None:  # the recording ended without a status (cancelled)
            raise TransportError(self._ex.error or "the recorded stream ended without a status")
        return recorded_answer(self._ex)

    def cancel(self) -> None:
        self._messages.clear()


class GrpcReplay:
    """Answers each call with the recorded exchange of the same method and address."""

    def __init__(self, exchanges: list[Exchange]) -> None:
        self._queues: dict[str, deque[Exchange]] = defaultdict(deque)
        for ex in exchanges:
            if ex.grpc:
                self._queues[ex.url].append(ex)
        #: Calls with no recorded answer left.
        self.unmatched: list[str] = []

    def _next(self, target: GrpcTarget, method: str) -> Exchange:
        url = target.url(method)
        queue = self._queues.get(url)
        if not queue:
            self.unmatched.append(f"GRPC {url}")
            raise TransportError(f"replay: no recorded answer for {url}")
        ex = queue.popleft()
        if ex.status is None and not ex.events:  # failed in transport: fail again
            ending = recorded_ending(ex)
            if ending is not None:
                raise ending
            raise TransportError(ex.error or "recorded transport error", url=target.address)
        return ex

    async def unary(
        self, target: GrpcTarget, method: str, request: bytes, metadata: Headers, timeout: float
    ) -> tuple[bytes | None, GrpcAnswer]:
        ex = self._next(target, method)
        answer = recorded_answer(ex)
        return (
            recorded_message(pb.RESPONSES[method], ex.response_body) if ex.status == 0 else None
        ), answer

    async def stream(
        self, target: GrpcTarget, method: str, request: bytes, metadata: Headers
    ) -> GrpcStream:
        return _Replayed(self._next(target, method), pb.RESPONSES[method])

    async def aclose(self) -> None:
        self._queues.clear()
