"""Content-Encoding decoding: bounded pieces, every layer counted, unknown ones refused."""

from __future__ import annotations

import gzip
import zlib

import httpx
import pytest

from sia_tui.core.a2a.http.decoding import PIECE, BoundedDecoder, content_codings
from sia_tui.core.errors import EncodingRefused, ResponseTooLarge, TransportError
from tests.support import bombs

TEXT = b'{"name": "agent", "pad": "' + b"x" * 200_000 + b'"}'


def decode(codings: str, body: bytes, limit: int = 10_000_000, split: int = 4096) -> bytes:
    decoder = BoundedDecoder(content_codings(httpx.Headers({"content-encoding": codings})), limit)
    out = bytearray()
    for start in range(0, len(body), split):
        for piece in decoder.feed(body[start : start + split]):
            assert len(piece) <= PIECE
            out += piece
    for piece in decoder.flush():
        out += piece
    return bytes(out)


@pytest.mark.parametrize(
    ("codings", "encode"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("GZIP", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda b: zlib.compress(b)[2:-4]),  # raw deflate, as some servers send
        ("gzip, deflate", lambda b: zlib.compress(gzip.compress(b))),
        ("identity, gzip", gzip.compress),
        ("", lambda b: b),
    ],
)
def test_bodies_decode_exactly(codings: str, encode: object) -> None:
    assert callable(encode)
    assert decode(codings, encode(TEXT)) == TEXT


@pytest.mark.parametrize("codings", ["br", "zstd", "compress", "gzip, sia-bogus"])
def test_encodings_not_offered_are_refused_by_name(codings: str) -> None:
    with pytest.raises(EncodingRefused, match="refused: sia-tui decodes only gzip, deflate"):
        content_codings(httpx.Headers({"content-encoding": codings}))


def test_more_than_two_layers_are_refused() -> None:
    with pytest.raises(EncodingRefused, match="3 layers, at most 2"):
        content_codings(
            httpx.Headers([("content-encoding", "gzip"), ("content-encoding", "gzip, gzip")])
        )


def test_each_layer_stops_at_the_limit() -> None:
    with pytest.raises(ResponseTooLarge, match="once gzip-decoded"):
        decode("gzip, gzip", bombs.gzip(bombs.gzip_zeros(64)), limit=1_000_000)


@pytest.mark.parametrize("mib", [1, 3, 17])
def test_the_test_bombs_are_whole_streams_their_checksums_included(mib: int) -> None:
    """The bombs the hostile agents send are what they say (their checksums are computed,
    not read off 1 GiB): Python's own decoders check CRC-32, Adler-32 and the length."""
    zeros = bytes(mib * bombs.MIB)
    assert gzip.decompress(bombs.gzip_zeros(mib)) == zeros
    assert zlib.decompress(bombs.zlib_zeros(mib)) == zeros


def test_an_encoded_body_that_inflates_to_nothing_is_still_bounded_on_the_wire() -> None:
    empty_blocks = b"\x78\x9c" + b"\x00\x00\x00\xff\xff" * 100_000  # stored, empty, forever
    with pytest.raises(ResponseTooLarge, match="larger than 100000 bytes"):
        decode("deflate", empty_blocks, limit=100_000)


def test_a_corrupt_body_is_a_named_transport_error() -> None:
    with pytest.raises(TransportError, match="the gzip body cannot be decoded"):
        decode("gzip", b"\x1f\x8b\x08\x00garbage-garbage-garbage")
