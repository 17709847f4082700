"""The run history: every run autosaved under platformdirs' data dir, bounded, deletable."""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.session.data_location import data_dir
from sia_tui.core.session.dataclass_json import SessionError

if TYPE_CHECKING:
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.run.read_model import Run

#: Bounds: the newest entries are kept, the oldest dropped first.
MAX_ENTRIES = 200
MAX_TOTAL_BYTES = 100 * 1024 * 1024
INDEX_NAME = "index.json"
#: What an entry id looks like (``20260501T120000Z-a1b2c3``): nothing else names a file.
_ENTRY_ID = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}")
#: What an entry records: the eleven steps, or a probe run.
ENTRY_KINDS = ("run", "probe")
#: Agent names are the agent's text: kept short in the index.
_NAME_LIMIT = 80


@dataclass(frozen=True)
class HistoryEntry:
    """One autosaved run, as listed in the History screen."""

    id: str
    created: float
    target: str
    skill: str | None
    outcome: str
    failed_step: int | None
    file: str
    size: int
    #: The agent's name from its card (entries written before it was recorded have none).
    agent: str | None = None
    #: "run" (the eleven steps), or "probe": a probe run, whose ``outcome`` is the probes'.
    kind: str = "run"

    @property
    def when(self) -> str:
        """Creation time, UTC, for lists."""
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(self.created))


def history_dir() -> Path:
    """``data_dir()/history``."""
    return data_dir() / "history"


#: The only file names an entry may have: ``<id>.session.json`` in the history folder.
_ENTRY_FILE = re.compile(r"[0-9A-Za-z-]{1,64}\.session\.json")


def _read_index(folder: Path) -> list[HistoryEntry]:
    try:
        data: Any = json.loads((folder / INDEX_NAME).read_text(encoding="utf-8"))
        entries = [HistoryEntry(**item) for item in data["entries"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []  # a missing or damaged index only loses the list, never the files
    # An edited entry naming another file ("../../x") is dropped: delete and prune never
    # touch anything outside the history folder, whatever the index says.
    return [e for e in entries if _well_formed(e)]


def _well_formed(entry: HistoryEntry) -> bool:
    """Members of the types written, and a file name of the history's own."""
    return (
        isinstance(entry.file, str)
        and _ENTRY_FILE.fullmatch(entry.file) is not None
        and all(isinstance(v, str) for v in (entry.id, entry.target, entry.outcome))
        and isinstance(entry.skill, str | None)
        and isinstance(entry.created, int | float)
        and not isinstance(entry.created, bool)
        and math.isfinite(entry.created)
        and 0 <= entry.created < 2**40
        and isinstance(entry.failed_step, int | None)
        and isinstance(entry.size, int)
        and entry.kind in ENTRY_KINDS
    )


def _write_index(folder: Path, entries: list[HistoryEntry]) -> None:
    atomic_write(
        folder / INDEX_NAME, json.dumps({"entries": [asdict(e) for e in entries]}, indent=1)
    )


def list_history() -> list[HistoryEntry]:
    """Entries newest first; entries whose file vanished are dropped."""
    folder = history_dir()
    entries = [e for e in _read_index(folder) if (folder / e.file).is_file()]
    return sorted(entries, key=lambda e: e.created, reverse=True)


def entry_path(entry: HistoryEntry) -> Path:
    """The session file of an entry."""
    return history_dir() / entry.file


def autosave(
    run: Run,
    options: ClientOptions,
    *,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
    entry_id: str | None = None,
    probe: dict[str, Any] | None = None,
    probe_outcome: str | None = None,
) -> Path:
    """Save ``run`` (redacted) into the history and prune it to its bounds.

    ``entry_id`` (the stem of a path this returned before) updates that entry in place: a
    run saved after steps 1-6 and again after its invocation stays one entry. ``probe`` is
    the ``probe`` member of a probe run (its learning run is ``run``), listed with the
    probes' ``probe_outcome``.
    """
    from sia_tui.core.session.store import render_document  # the data dir alone needs none of it

    folder = history_dir()
    now = time.time()
    if entry_id is None or not _ENTRY_ID.fullmatch(entry_id):
        entry_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now)) + "-" + secrets.token_hex(3)
    rendered = render_document(run, options, secret_values, secret_headers, probe=probe)
    path = folder / f"{entry_id}.session.json"
    saved = rendered.document["run"]  # what the file holds: redacted
    card = saved.get("card") or {}
    try:
        atomic_write(path, rendered.data)
        failed = run.failed_step
        entry = HistoryEntry(
            id=entry_id,
            created=now,
            target=saved["target"]["location"],
            skill=run.skill_id or run.target.skill_id,
            outcome=probe_outcome if probe is not None and probe_outcome else run.verdict.outcome,
            failed_step=failed.step if failed else None,
            file=path.name,
            size=len(rendered.data),
            agent=str(card["name"])[:_NAME_LIMIT] if isinstance(card.get("name"), str) else None,
            kind="probe" if probe is not None else "run",
        )
        others = [e for e in list_history() if e.id != entry_id]
        _write_index(folder, _prune(folder, [entry, *others]))
    except OSError as exc:
        raise SessionError(f"cannot write the history in {folder}: {exc.strerror or exc}") from None
    return path


def _prune(folder: Path, entries: list[HistoryEntry]) -> list[HistoryEntry]:
    """Keep the newest MAX_ENTRIES within MAX_TOTAL_BYTES; delete the rest."""
    kept: list[HistoryEntry] = []
    total = 0
    for entry in sorted(entries, key=lambda e: e.created, reverse=True):
        if len(kept) < MAX_ENTRIES and total + entry.size <= MAX_TOTAL_BYTES:
            kept.append(entry)
            total += entry.size
        else:
            (folder / entry.file).unlink(missing_ok=True)
    return kept


def delete_entry(entry_id: str) -> bool:
    """Delete one entry and its file; False when there is no such entry."""
    folder = history_dir()
    entries = list_history()
    match = next((e for e in entries if e.id == entry_id), None)
    if match is None:
        return False
    (folder / match.file).unlink(missing_ok=True)
    _write_index(folder, [e for e in entries if e.id != entry_id])
    return True


def clear_history() -> int:
    """Delete every entry; returns how many were deleted."""
    entries = list_history()
    for entry in entries:
        delete_entry(entry.id)
    return len(entries)
