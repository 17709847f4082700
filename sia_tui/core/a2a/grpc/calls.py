"""What the gRPC binding needs from a transport, without grpc: the live one (grpc.aio, in
``grpc/channel.py``) and the replay of a recorded session both provide it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from sia_tui.core.a2a.grpc.target import GrpcTarget
from sia_tui.core.exchange import Headers

STATUS_DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True)
class GrpcAnswer:
    """How a call ended: its status, metadata, and the status details' bytes."""

    code: int
    message: str
    #: Initial metadata, then trailing metadata; ``-bin`` values base64, the status
    #: details summarised (they are decoded into the recorded body instead).
    metadata: Headers = ()
    details_bin: bytes | None = None


class GrpcStream(Protocol):
    """A server-streaming call in progress."""

    async def read(self) -> bytes | None:
        """The next message, or None once the server has ended the stream."""

    async def finish(self) -> GrpcAnswer:
        """The status the stream ended with (after ``read`` returned None)."""

    def cancel(self) -> None:
        """Stop the call (the client is done, or was cancelled)."""


class GrpcTransport(Protocol):
    """What the gRPC binding needs from a transport: grpc.aio, or a replay of a session."""

    async def unary(
        self, target: GrpcTarget, method: str, request: bytes, metadata: Headers, timeout: float
    ) -> tuple[bytes | None, GrpcAnswer]:
        """One request, one answer: the response message (None when the status is not OK)."""

    async def stream(
        self, target: GrpcTarget, method: str, request: bytes, metadata: Headers
    ) -> GrpcStream:
        """Open a server-streaming call."""

    async def aclose(self) -> None:
        """Close every channel."""
