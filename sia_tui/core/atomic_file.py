"""Writing a file so that readers, and other processes writing it, never see half of it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, text: str | bytes) -> None:
    """Write ``text`` (a str as UTF-8, bytes as they are) to ``path`` through a unique temp
    file in the same directory.

    The temp name is unique per call (``mkstemp``), so two processes saving the same file
    at once never trip over each other's temp file; ``os.replace`` makes the last writer win
    whole. The temp file is removed on any failure.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
