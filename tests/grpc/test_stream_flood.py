"""A gRPC stream of tiny messages is read in time linear in their number."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sia_tui.core.a2a import grpc_client
from sia_tui.core.a2a.grpc_calls import GrpcAnswer
from sia_tui.core.a2a.options import ClientOptions


class TinyMessages:
    """A server stream of ``count`` empty StreamResponse messages (0 bytes each)."""

    def __init__(self, count: int) -> None:
        self.left = count

    async def read(self) -> bytes | None:
        if not self.left:
            return None
        self.left -= 1
        return b""

    async def finish(self) -> GrpcAnswer:
        raise AssertionError("not reached")

    def cancel(self) -> None:
        pass


def _cpu_seconds(count: int) -> float:
    """This thread's CPU time to read ``count`` messages the way the binding reads them."""
    binding: Any = type("Binding", (), {"options": ClientOptions()})()
    record = grpc_client._Record(None, "stream", "grpc://h:1/a/b", (), b"", 0)  # type: ignore[arg-type]
    stream = TinyMessages(count)

    async def read_all() -> None:
        while await grpc_client.GrpcBinding._read(binding, stream, record) is not None:
            pass

    started = time.thread_time()
    asyncio.run(read_all())
    return time.thread_time() - started


def test_ten_times_the_messages_cost_about_ten_times_the_time() -> None:
    """The size limit is a running total: 83,000 tiny messages once re-summed every size
    per message and ran 20 s past the run's 60 s deadline (a ratio, measured in one run)."""
    _cpu_seconds(500)  # warm up: the protobuf pool loads once
    small = min(_cpu_seconds(3000) for _ in range(3))
    large = min(_cpu_seconds(30000) for _ in range(2))
    assert large / small < 30, f"10x the messages took {large / small:.0f}x the time"
