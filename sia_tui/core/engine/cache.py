"""The Skill Interface Document cache (RULES CP12).

An entry is bound to the target identity, skill id, skill version and interface digest
advertised by the card; any change of the four is a different key, so a redeployed
interface can never be served from a stale entry.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.errors import JsonInputError
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.jsonkit.strictjson import loads

#: Environment variable that moves the cache (tests point it at a temporary directory).
CACHE_DIR_ENV = "SIA_TUI_CACHE_DIR"


@dataclass(frozen=True)
class CacheKey:
    """The four values a cached document is bound to (RULES CP12)."""

    target: str
    skill_id: str
    skill_version: str
    interface_digest: str

    def filename(self) -> str:
        """A file name derived from all four values."""
        return digest_of(self.__dict__).removeprefix("sha256:") + ".json"


@dataclass(frozen=True)
class CachedDocument:
    """What describe_skill returned: the digest it claimed and the document."""

    returned_digest: str
    document: dict[str, Any]


def default_cache_dir() -> Path:
    """The per-user cache directory, or ``$SIA_TUI_CACHE_DIR`` when set."""
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs  # only a run that uses the cache pays for its import

    return Path(platformdirs.user_cache_dir("sia-tui")) / "documents"


class DocumentCache:
    """Validated documents on disk, one JSON file per key."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_cache_dir()

    def get(self, key: CacheKey) -> CachedDocument | None:
        """The entry for ``key``, or None (a damaged entry counts as absent)."""
        path = self.directory / key.filename()
        try:
            entry = loads(path.read_bytes(), source=str(path))
        except (OSError, JsonInputError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key.__dict__:
            return None
        document, returned = entry.get("document"), entry.get("returned_digest")
        if not isinstance(document, dict) or not isinstance(returned, str):
            return None
        return CachedDocument(returned, document)

    def put(self, key: CacheKey, value: CachedDocument) -> None:
        """Store ``value`` atomically; a cache that cannot be written is silently skipped."""
        entry = {
            "key": key.__dict__,
            "returned_digest": value.returned_digest,
            "document": value.document,
        }
        try:
            atomic_write(self.directory / key.filename(), json.dumps(entry))
        except OSError:
            return

    def clear(self) -> int:
        """Delete every entry; returns how many were removed."""
        removed = 0
        for path in self.directory.glob("*.json"):
            path.unlink(missing_ok=True)
            removed += 1
        return removed
