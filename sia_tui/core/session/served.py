"""A recorded answer as bytes on the wire again: replay's transport and ``sia-tui mock``
serve a recorded exchange's body and headers through these."""

from __future__ import annotations

from sia_tui.core.exchange import Exchange

#: Response headers that describe the recorded transfer, not the (already decoded) body.
_TRANSFER_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding"})


def served_body(ex: Exchange) -> bytes:
    """A stream recorded only as event data is served again as SSE."""
    if ex.response_body or not ex.events:
        return ex.response_body
    return sse_body(ex.events)


def sse_body(events: tuple[bytes, ...]) -> bytes:
    """Event data as an SSE body: one ``data:`` line per line of each event."""
    return b"".join(b"data: " + event.replace(b"\n", b"\ndata: ") + b"\n\n" for event in events)


def wire_headers(ex: Exchange) -> list[tuple[bytes, bytes]]:
    """The recorded response headers as bytes on the wire again (a set cookie must replay).

    A session holds header text: the «redacted:…» placeholder of a Set-Cookie, or anything
    a hand-edited file says, is not ASCII, and httpx encodes a str header as ASCII. Bytes
    (UTF-8) are served as they are, as a server's would be.
    """
    return [
        (name.encode("utf-8", "surrogateescape"), value.encode("utf-8", "surrogateescape"))
        for name, value in ex.response_headers
        if name.lower() not in _TRANSFER_HEADERS
    ]
