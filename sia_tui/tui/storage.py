"""Per-user files of the TUI: remembered theme, recent targets, persisted argument edits."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.errors import SiaError
from sia_tui.core.redaction import strip_credentials
from sia_tui.core.session import data_dir

_APP = "sia-tui"
#: How many recent targets the connect screen remembers.
MAX_RECENT = 10


@dataclass(frozen=True)
class UserDirs:
    """Where the TUI keeps its files; tests point both at a temporary directory."""

    config: Path
    data: Path

    @classmethod
    def default(cls) -> UserDirs:
        """platformdirs' per-user config dir, and the data dir the history uses too
        (``SIA_TUI_DATA_DIR`` moves recent targets and edits along with the history)."""
        return cls(Path(platformdirs.user_config_dir(_APP)), data_dir())

    # -- settings --------------------------------------------------------------------------
    def load_settings(self) -> dict[str, Any]:
        """The settings file as a dict (empty when absent or unreadable)."""
        return _read_json_object(self.config / "tui.json")

    def save_setting(self, key: str, value: Any) -> None:
        """Remember one setting (e.g. the theme)."""
        settings = self.load_settings()
        settings[key] = value
        _write_json(self.config / "tui.json", settings)

    # -- recent targets ----------------------------------------------------------------------
    def recent_targets(self) -> list[str]:
        """Most recent first."""
        values = _read_json_object(self.data / "recent.json").get("targets", [])
        return [v for v in values if isinstance(v, str)][:MAX_RECENT]

    def remember_target(self, location: str) -> None:
        """Put ``location`` first in the recent list (never its credentials)."""
        location = strip_credentials(location)
        targets = [location] + [t for t in self.recent_targets() if t != location]
        _write_json(self.data / "recent.json", {"targets": targets[:MAX_RECENT]})

    # -- argument edits ----------------------------------------------------------------------
    def edit_path(self, target: str, skill_id: str) -> Path:
        """One file per target+skill; the name is a hash so any URL is a safe filename."""
        target = strip_credentials(target)
        key = hashlib.sha256(f"{target}\n{skill_id}".encode()).hexdigest()[:32]
        return self.data / "edits" / f"{key}.json"

    def load_edit(self, target: str, skill_id: str) -> str | None:
        """The argument text last typed for this target and skill (None: no draft).

        Raises ``BrokenDraft`` when a draft is there but is not one this app wrote (not
        UTF-8 JSON, no text): the caller sets it aside rather than overwrite it."""
        path = self.edit_path(target, skill_id)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise BrokenDraft(path, f"{type(exc).__name__}: {exc}") from exc
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError both
            raise BrokenDraft(path, f"{type(exc).__name__}: {exc}") from exc
        text = data.get("text") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise BrokenDraft(path, "it holds no argument text")
        return text

    def set_aside_edit(self, target: str, skill_id: str) -> Path:
        """Rename the draft of this target and skill beside itself, as
        ``<name>.broken-<UTC time>``, and return where it went (kept for the user to read;
        the next save starts a new draft)."""
        path = self.edit_path(target, skill_id)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        aside = path.with_name(f"{path.name}.broken-{stamp}")
        path.replace(aside)
        return aside

    def save_edit(self, target: str, skill_id: str, text: str) -> None:
        """Persist the editor text (nothing typed is ever lost)."""
        record = {"target": strip_credentials(target), "skill_id": skill_id, "text": text}
        _write_json(self.edit_path(target, skill_id), record)


class BrokenDraft(SiaError):
    """A saved argument draft that cannot be read back (``path``; ``reason`` says why)."""

    kind = "draft"

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _read_json_object(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_json(path: Path, data: Any) -> None:
    # A unique temp file per write: two sia-tui processes saving a setting at once must not
    # race on one temp name (with a shared one, one of eight simultaneous starts crashed).
    atomic_write(path, json.dumps(data, indent=2))
