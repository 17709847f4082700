"""A private JWK written for a vendor: readable by its owner only, never over another file.

``sign-card --new-key`` and ``serve-demo --write-key`` write the key they generate here, so
a vendor can sign later with ``sign-card --key`` and no other tool. The file is created
with mode 0600 in one ``open`` (``O_EXCL``: an existing file, a key perhaps, is refused,
never replaced) so no other user can read the key even for a moment.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sia_tui.core.trust.records import TrustFileError

#: Owner read and write only: a private key.
KEY_FILE_MODE = 0o600


def write_private_key(path: str | Path, key: dict[str, Any]) -> None:
    """Create ``path`` holding the private JWK ``key`` with mode 0600; raise
    ``TrustFileError`` when it exists (nothing is overwritten) or cannot be written."""
    target = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, KEY_FILE_MODE)
    except FileExistsError:
        raise TrustFileError(
            f"{target} exists; a new key is never written over a file (sign with it: "
            "--key, or name another file)"
        ) from None
    except OSError as exc:
        raise TrustFileError(f"{target}: cannot create the key file: {exc.strerror}") from None
    try:
        os.fchmod(fd, KEY_FILE_MODE)  # whatever the umask left out, never more
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(key, indent=2) + "\n")
    except OSError as exc:
        target.unlink(missing_ok=True)
        raise TrustFileError(f"{target}: cannot write the key: {exc.strerror}") from None
