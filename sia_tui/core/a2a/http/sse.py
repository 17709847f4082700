"""Incremental Server-Sent Events parser: feed bytes as they arrive, get whole events."""

from __future__ import annotations

from dataclasses import dataclass

from sia_tui.core.errors import ResponseTooLarge

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class SSEEvent:
    """One dispatched event. ``data`` is the raw bytes of its data lines joined with LF."""

    data: bytes
    event: str | None = None
    id: str | None = None

    @property
    def is_error(self) -> bool:
        """``event: error`` carries a JSON-RPC error object (sse-starlette servers)."""
        return self.event == "error"


class SSEParser:
    """WHATWG event-stream framing: CRLF, LF or CR line ends, split anywhere across chunks."""

    def __init__(self, *, max_event_bytes: int = 2 * 1024 * 1024) -> None:
        self._max = max_event_bytes
        self._buffer = bytearray()
        #: Bytes at the buffer's start already known to hold no line end (keeps feeding linear).
        self._scanned = 0
        self._data: list[bytes] = []
        self._data_size = 0
        self._event: str | None = None
        self._id: str | None = None
        self._started = False

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        """Add bytes; return every event completed by them, in order."""
        self._buffer += chunk
        if not self._started:
            if len(self._buffer) < len(_BOM) and _BOM.startswith(self._buffer):
                return []  # could still be a BOM: wait for more bytes
            self._started = True
            if self._buffer.startswith(_BOM):
                del self._buffer[: len(_BOM)]
        events: list[SSEEvent] = []
        while True:
            line = self._next_line()
            if line is None:
                break
            event = self._handle_line(line)
            if event is not None:
                events.append(event)
        # A line that never ends is still bounded (RULES: untrusted input stays bounded).
        if len(self._buffer) + self._data_size > self._max:
            raise ResponseTooLarge(f"SSE event larger than {self._max} bytes")
        return events

    def close(self) -> list[SSEEvent]:
        """End of stream: an unterminated final event is still delivered (a debugger shows it)."""
        events: list[SSEEvent] = []
        if self._buffer:
            line = bytes(self._buffer).rstrip(b"\r")
            self._buffer.clear()
            event = self._handle_line(line)
            if event is not None:
                events.append(event)
        event = self._dispatch()
        if event is not None:
            events.append(event)
        return events

    def _next_line(self) -> bytes | None:
        """Cut one line off the buffer, or None when no complete line is there yet."""
        buffer = self._buffer
        cr, lf = buffer.find(b"\r", self._scanned), buffer.find(b"\n", self._scanned)
        if cr == -1 and lf == -1:
            self._scanned = len(buffer)
            return None
        if cr != -1 and (lf == -1 or cr < lf):
            if cr == len(buffer) - 1:
                self._scanned = cr
                return None  # a CR at the end may be the first half of CRLF
            cut, end = cr, cr + 2 if buffer[cr + 1 : cr + 2] == b"\n" else cr + 1
        else:
            cut, end = lf, lf + 1
        line = bytes(buffer[:cut])
        del buffer[:end]
        self._scanned = 0
        return line

    def _handle_line(self, line: bytes) -> SSEEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(b":"):
            return None  # comment, e.g. ": ping"
        name, sep, value = line.partition(b":")
        if sep and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            self._data.append(value)
            self._data_size += len(value) + 1
            if self._data_size > self._max:
                raise ResponseTooLarge(f"SSE event larger than {self._max} bytes")
        elif name == b"event":
            self._event = value.decode("utf-8", "replace")
        elif name == b"id" and b"\x00" not in value:
            self._id = value.decode("utf-8", "replace")
        return None  # "retry" and unknown fields are ignored

    def _dispatch(self) -> SSEEvent | None:
        data, event = self._data, self._event
        self._data, self._data_size, self._event = [], 0, None
        if not data:
            return None
        return SSEEvent(data=b"\n".join(data), event=event, id=self._id)
