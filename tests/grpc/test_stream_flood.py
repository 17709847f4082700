"""A gRPC stream of tiny messages is read in time linear in their number, and kept bounded."""

from __future__ import annotations

import asyncio
from typing import Any

from sia_tui.core.a2a.grpc import binding as grpc_client
from sia_tui.core.a2a.grpc.calls import GrpcAnswer
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.limits import MAX_STREAM_EVENTS_KEPT
from tests.support.thread_cpu import thread_cpu


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
    """This thread's CPU time to read ``count`` messages the way the binding reads them
    (``thread_cpu``: without the collector)."""
    binding: Any = type("Binding", (), {"options": ClientOptions()})()
    record = grpc_client._Record(None, "stream", "grpc://h:1/a/b", (), b"", 0)  # type: ignore[arg-type]
    stream = TinyMessages(count)

    async def read_all() -> None:
        while await grpc_client.GrpcBinding._read(binding, stream, record) is not None:
            pass

    return thread_cpu(lambda: asyncio.run(read_all()))[0]


def test_ten_times_the_messages_cost_about_ten_times_the_time() -> None:
    """The size limit is a running total: 83,000 tiny messages once re-summed every size
    per message and ran 20 s past the run's 60 s deadline (a ratio, measured in one run)."""
    _cpu_seconds(500)  # warm up: the protobuf pool loads once
    small = min(_cpu_seconds(3000) for _ in range(3))
    large = min(_cpu_seconds(30000) for _ in range(2))
    assert large / small < 30, f"10x the messages took {large / small:.0f}x the time"


def test_a_stream_of_tiny_messages_keeps_a_bounded_number_and_counts_the_rest() -> None:
    """Every message is read; the exchange keeps ``MAX_STREAM_EVENTS_KEPT`` of them (the
    first ones and the last, as an HTTP event stream's) and their sizes, and counts the
    rest: 83,000 kept messages once made a 20 MB session."""
    recorded: list[Any] = []
    recorder: Any = type("Recorder", (), {"record": lambda self, **f: recorded.append(f)})()
    binding: Any = type("Binding", (), {"options": ClientOptions()})()
    record = grpc_client._Record(recorder, "stream", "grpc://h:1/a/b", (), b"", 7)
    stream = TinyMessages(5000)

    async def read_all() -> int:
        count = 0
        while await grpc_client.GrpcBinding._read(binding, stream, record) is not None:
            count += 1
        return count

    assert asyncio.run(read_all()) == 5000
    record.save()
    (saved,) = recorded
    assert len(saved["events"]) == MAX_STREAM_EVENTS_KEPT
    assert saved["events_not_kept"] == 5000 - MAX_STREAM_EVENTS_KEPT
    assert saved["message_sizes"] == (7, *[0] * MAX_STREAM_EVENTS_KEPT)
