"""Content-Encoding undone in bounded pieces, every layer counted against the size limit.

httpx inflates each received chunk in one call: with two layers, a few kilobytes become
gigabytes before any limit is checked. Here every layer inflates at most ``PIECE`` bytes
at a time and stops at ``max_response_bytes`` with ResponseTooLarge, so memory stays a few
pieces per layer whatever the ratio. Only what we ask for (``ACCEPT_ENCODING``) is decoded;
an unknown encoding, or more than ``limits.MAX_CONTENT_ENCODINGS`` layers, is refused.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

import httpx

from sia_tui.core import limits
from sia_tui.core.errors import EncodingRefused, ResponseTooLarge, TransportError

#: Encodings this client decodes (and announces in ``Accept-Encoding``).
DECODED = ("gzip", "deflate")
ACCEPT_ENCODING = ", ".join(DECODED)
#: Largest piece one layer produces per call.
PIECE = 64 * 1024
_ALIASES = {"x-gzip": "gzip"}


def content_codings(headers: httpx.Headers) -> list[str]:
    """The encodings applied to the body, in the order they were applied (RFC 9110 8.4).

    Raises EncodingRefused for an unknown encoding or too many layers; ``identity`` is
    a no-op and dropped.
    """
    named = [c.strip().lower() for c in headers.get_list("content-encoding", split_commas=True)]
    codings = [_ALIASES.get(c, c) for c in named if c and c != "identity"]
    shown = ", ".join(named)[:200]
    unknown = [c for c in codings if c not in DECODED]
    if unknown:
        raise EncodingRefused(
            f"Content-Encoding {unknown[0][:80]!r} refused: sia-tui decodes only "
            f"{ACCEPT_ENCODING} (the answer was {shown!r})"
        )
    if len(codings) > limits.MAX_CONTENT_ENCODINGS:
        raise EncodingRefused(
            f"Content-Encoding {shown!r} refused: {len(codings)} layers, at most "
            f"{limits.MAX_CONTENT_ENCODINGS} are decoded"
        )
    return codings


class _Inflater:
    """One gzip or deflate layer; ``deflate`` accepts zlib-wrapped and raw streams."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        wbits = zlib.MAX_WBITS | 16 if coding == "gzip" else zlib.MAX_WBITS
        self._zlib = zlib.decompressobj(wbits)
        self._first = True

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data and not self._zlib.eof:
            try:
                out = self._zlib.decompress(data, PIECE)
            except zlib.error as exc:
                if self._first and self.coding == "deflate":
                    # Some servers send raw deflate without the zlib wrapper (as httpx allows).
                    self._first = False
                    self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise TransportError(f"the {self.coding} body cannot be decoded: {exc}") from exc
            self._first = False
            data = self._zlib.unconsumed_tail
            if out:
                yield out
            while len(out) == PIECE and not data and not self._zlib.eof:
                out = self._zlib.decompress(b"", PIECE)  # drain what is still buffered
                if out:
                    yield out

    def flush(self) -> Iterator[bytes]:
        out = self._zlib.flush(PIECE)
        if out:
            yield out


class BoundedDecoder:
    """Undo ``codings`` (as listed in Content-Encoding) with every layer capped at ``limit``."""

    def __init__(self, codings: list[str], limit: int) -> None:
        # Applied first is listed first, so it is undone last.
        self._layers = [_Inflater(c) for c in reversed(codings)]
        self._limit = limit
        self._produced = [0] * len(self._layers)
        self._received = 0

    def feed(self, raw: bytes) -> Iterator[bytes]:
        """Decoded pieces for ``raw`` bytes from the wire."""
        self._received += len(raw)
        if self._layers and self._received > self._limit:  # encoded, inflating to nothing
            raise ResponseTooLarge(
                f"response larger than {self._limit} bytes (--max-response-bytes); read aborted"
            )
        return self._through(0, (raw,))

    def flush(self) -> Iterator[bytes]:
        """What the layers still hold at the end of the body."""
        yield from self._flush_from(0)

    def _flush_from(self, index: int) -> Iterator[bytes]:
        if index == len(self._layers):
            return
        tail = self._counted(index, self._layers[index].flush())
        yield from self._through(index + 1, tail)
        yield from self._flush_from(index + 1)

    def _through(self, index: int, pieces: Iterable[bytes]) -> Iterator[bytes]:
        if index == len(self._layers):
            yield from pieces
            return
        layer = self._layers[index]
        for piece in pieces:
            yield from self._through(index + 1, self._counted(index, layer.feed(piece)))

    def _counted(self, index: int, pieces: Iterable[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            self._produced[index] += len(piece)
            if self._produced[index] > self._limit:
                layer = self._layers[index].coding
                raise ResponseTooLarge(
                    f"response larger than {self._limit} bytes once {layer}-decoded "
                    "(--max-response-bytes); read aborted"
                )
            yield piece
