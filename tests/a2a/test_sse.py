"""The SSE parser: line endings, comments, multi-line data, event names, any chunking, limits."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.http.sse import SSEEvent, SSEParser
from sia_tui.core.errors import ResponseTooLarge

STREAM = (
    ": ping\n"
    'data: {"a": 1}\n'
    "\n"
    "event: error\n"
    'data: {"error": {"code": -32603,\n'
    'data:  "message": "boom"}}\n'
    "id: 7\n"
    "\n"
    ": trailing comment\n"
    "data:no-space\n"
    "retry: 10\n"
    "\n"
)
EXPECTED = [
    SSEEvent(b'{"a": 1}'),
    SSEEvent(b'{"error": {"code": -32603,\n "message": "boom"}}', event="error", id="7"),
    SSEEvent(b"no-space", id="7"),  # the last event id persists, the event name does not
]


def parse_all(data: bytes, chunk: int | None = None) -> list[SSEEvent]:
    parser = SSEParser()
    events: list[SSEEvent] = []
    size = chunk or len(data) or 1
    for start in range(0, len(data), size):
        events += parser.feed(data[start : start + size])
    return events + parser.close()


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_line_ending(newline: str) -> None:
    assert parse_all(STREAM.replace("\n", newline).encode()) == EXPECTED


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_split_at_every_byte_offset(newline: str) -> None:
    data = STREAM.replace("\n", newline).encode()
    for offset in range(len(data) + 1):
        parser = SSEParser()
        events = parser.feed(data[:offset]) + parser.feed(data[offset:]) + parser.close()
        assert events == EXPECTED, f"split at {offset}"


def test_one_byte_at_a_time_with_crlf() -> None:
    assert parse_all(STREAM.replace("\n", "\r\n").encode(), chunk=1) == EXPECTED


def test_error_event_is_flagged() -> None:
    events = parse_all(STREAM.encode())
    assert [e.is_error for e in events] == [False, True, False]


def test_leading_bom_is_ignored_even_when_split() -> None:
    data = b"\xef\xbb\xbfdata: x\n\n"
    assert parse_all(data, chunk=1) == [SSEEvent(b"x")]


def test_unterminated_last_event_is_still_delivered_at_close() -> None:
    parser = SSEParser()
    assert parser.feed(b"data: tail") == []
    assert parser.close() == [SSEEvent(b"tail")]


def test_comment_only_and_empty_data_streams_dispatch_nothing() -> None:
    assert parse_all(b": ping\r\n\r\n: ping\r\n\r\nevent: x\n\n") == []


def test_oversized_event_is_refused() -> None:
    parser = SSEParser(max_event_bytes=64)
    with pytest.raises(ResponseTooLarge):
        parser.feed(b"data: " + b"x" * 40 + b"\ndata: " + b"y" * 40 + b"\n")


def test_endless_line_is_refused() -> None:
    parser = SSEParser(max_event_bytes=64)
    with pytest.raises(ResponseTooLarge):
        parser.feed(b"data: " + b"z" * 100)
