"""Compression bombs, built fast: N MiB of zeros without compressing N MiB.

After ``Z_FULL_FLUSH`` the compressor starts from an empty window, so every further MiB of
zeros compresses to the same bytes: one block is compressed and repeated, and only the
checksums walk the whole (virtual) input.
"""

from __future__ import annotations

import functools
import struct
import zlib

MIB = 1024 * 1024
_ZEROS = bytes(MIB)


@functools.cache
def _raw_zeros(mib: int) -> bytes:
    """A raw deflate stream that inflates to ``mib`` MiB of zeros."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    return block * mib + compressor.flush()


def _checksums(mib: int) -> tuple[int, int]:
    crc, adler = 0, 1
    for _ in range(mib):
        crc, adler = zlib.crc32(_ZEROS, crc), zlib.adler32(_ZEROS, adler)
    return crc, adler


@functools.cache
def gzip_zeros(mib: int) -> bytes:
    """A gzip member of ``mib`` MiB of zeros."""
    crc, _ = _checksums(mib)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + _raw_zeros(mib) + struct.pack("<II", crc, (mib * MIB) & 0xFFFFFFFF)


@functools.cache
def zlib_zeros(mib: int) -> bytes:
    """A zlib stream (HTTP ``deflate``) of ``mib`` MiB of zeros."""
    _, adler = _checksums(mib)
    return b"\x78\xda" + _raw_zeros(mib) + struct.pack(">I", adler)


def gzip(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return compressor.compress(data) + compressor.flush()


def deflate(data: bytes) -> bytes:
    return zlib.compress(data, 9)
