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
    """CRC-32 and Adler-32 of ``mib`` MiB of zeros, without reading them (reading 1 GiB
    cost 0.7 s of CPU per bomb). Adler-32: its sum of bytes stays 1 and the sum of sums
    grows by 1 a byte. CRC-32: one MiB of zeros maps the running CRC affinely (over GF(2)),
    so that map is applied ``mib`` times by squaring."""
    adler = ((mib * MIB) % 65521) << 16 | 1
    crc = _power(_affine_of_one_mib(), mib)[1]  # the map's constant is its value at 0
    return crc, adler


_Affine = tuple[tuple[int, ...], int]  # the image of each bit, and of 0


def _affine_of_one_mib() -> _Affine:
    zero = zlib.crc32(_ZEROS, 0)
    return tuple(zlib.crc32(_ZEROS, 1 << bit) ^ zero for bit in range(32)), zero


def _apply(linear: tuple[int, ...], value: int) -> int:
    image = 0
    for bit, column in enumerate(linear):
        if value >> bit & 1:
            image ^= column
    return image


def _then(first: _Affine, second: _Affine) -> _Affine:
    """``second`` after ``first``."""
    linear = tuple(_apply(second[0], column) for column in first[0])
    return linear, _apply(second[0], first[1]) ^ second[1]


def _power(step: _Affine, times: int) -> _Affine:
    result: _Affine = (tuple(1 << bit for bit in range(32)), 0)
    while times:
        if times & 1:
            result = _then(result, step)
        step, times = _then(step, step), times >> 1
    return result


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
