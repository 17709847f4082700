"""Local files read with a bound: regular files only, and never more than the limit.

Every file a user names (``check --args``, card files, session files, the plugfest file and
its ``arguments``, documents for ``lint``, ``canon`` and ``digest``) is read here. A FIFO
blocks forever on open or read and ``/dev/zero`` never ends, so the file is opened without
blocking and refused unless ``fstat`` says it is a regular file; then at most one byte
more than the limit is read, so the caller can tell "too large" without holding it all.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

from sia_tui.core.errors import FileInputError

#: Opening a FIFO for reading waits for a writer unless it is non-blocking (not on Windows,
#: where there are no FIFOs to open).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileBytes(NamedTuple):
    """What was read: at most ``limit + 1`` bytes, and the file's size on disk.

    A NamedTuple, not a dataclass: `digest` and `canon` read through here, and
    ``dataclasses`` (with ``inspect``) is start-up milliseconds they would not use."""

    data: bytes
    size: int


def what_it_is(mode: int) -> str:
    """``a named pipe (FIFO)``, ``a directory``...: what a file that is not regular is."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular_file(path: str | os.PathLike[str], limit: int) -> FileBytes:
    """At most ``limit + 1`` bytes of the regular file at ``path``; anything else (missing,
    unreadable, a FIFO, a device, a directory) is a :class:`FileInputError` saying why."""
    name = os.fspath(path)
    try:
        fd = os.open(name, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise FileInputError(name, _reason(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileInputError(name, f"it is {what_it_is(info.st_mode)}, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise FileInputError(name, _reason(exc)) from None
    finally:
        os.close(fd)
    return FileBytes(data, info.st_size)


def _reason(exc: OSError | ValueError) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
