"""A side of ``compose`` or ``diff``: a document from an agent or from a file, once for the
CLI and the TUI.

A card (URL or file) gives its document through steps 1-6 (``engine.obtain``). A file may
also be a bare document, a describe_skill payload or a saved session (its validated
document); its kind is read once (``input_kind``), and a file of another kind is refused
with the command that fits it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.obtain import obtain_document
from sia_tui.core.engine.offline import unwrap_payload, verify_offline
from sia_tui.core.errors import FileInputError, SiaError
from sia_tui.core.input_kind import InputKind, kind_of_json, kind_of_text, wrong_kind
from sia_tui.core.jsonkit.pointer import display_pointer
from sia_tui.core.jsonkit.strictjson import load_path
from sia_tui.core.local_file import read_regular_file
from sia_tui.core.run.state import Step, Target
from sia_tui.core.session.store import load_session

#: Bytes read to tell the kind: a session names its format in its first member.
_HEAD = 4096
#: The kinds that hold a document.
DOCUMENT_KINDS = (InputKind.DOCUMENT, InputKind.PAYLOAD, InputKind.SESSION)


class SideError(SiaError):
    """A compose or diff side cannot be obtained: the message names the side, and the step
    that failed or the file and the command that fits it."""

    kind = "side_unavailable"


@dataclass(frozen=True)
class InputFile:
    """A file's kind, and its parsed JSON when it was read to tell (None for a session,
    which ``load_session`` reads with its own limits)."""

    path: str
    kind: InputKind
    value: Any = None


@dataclass
class FileDocument:
    """A document, where it came from (a file, or ``CARD#SKILL`` fetched live) and what was
    found on the way."""

    source: str
    document: dict[str, Any]
    #: The describe_skill task that returned it (a live side, a session's run).
    task_id: str | None = None
    notes: list[str] = field(default_factory=list)
    #: False when a document file fails steps 4-6 offline: never approved.
    valid: bool = True
    #: Which side it is ("A", "upstream"), named in every message about it.
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        """Identity of the document for ``--json``."""
        doc = self.document
        return {
            "source": self.source,
            "skill_id": doc.get("skill_id"),
            "skill_version": doc.get("skill_version"),
            "task_id": self.task_id,
            "valid": self.valid,
            "notes": list(self.notes),
        }


def read_input_file(path: str) -> InputFile:
    """The kind of the file at ``path`` (and its JSON when parsed to tell)."""
    try:
        head = read_regular_file(path, _HEAD).data[:_HEAD]
    except FileInputError as exc:
        raise SideError(str(exc)) from None
    kind = kind_of_text(head)
    if kind is not None:
        return InputFile(path, kind)
    if b'"sia-session/' in head:
        return InputFile(path, InputKind.SESSION)
    try:
        value = load_path(path)
    except SiaError as exc:
        raise SideError(str(exc)) from None
    return InputFile(path, kind_of_json(value), value)


def document_from_file(read: InputFile, skill: str | None = None) -> FileDocument:
    """The document a document, payload or session file holds; ``skill``, when given, must be
    its skill id. Any other kind is refused with the command that fits it."""
    if read.kind not in DOCUMENT_KINDS:
        raise SideError(wrong_kind(read.path, read.kind, "a Skill Interface Document or a session"))
    found = _session(read.path) if read.kind is InputKind.SESSION else _document(read)
    named = found.document.get("skill_id")
    if skill is not None and named != skill:
        raise SideError(f"{read.path} holds the document of skill {named!r}, not {skill!r}")
    return found


def _document(read: InputFile) -> FileDocument:
    document, digest = unwrap_payload(read.value)
    if not isinstance(document, dict):
        raise SideError(f"{read.path}: the describe_skill payload's document is not an object")
    # A file did not pass through a run: the engine's steps 4-6 check it offline; a
    # payload's own digest is the returned one, compared with the computed one (RULES CP4,
    # CP5, CP6, SID6).
    verdict = verify_offline(document, returned=digest)
    notes = [
        f"{f.severity.value} at {display_pointer(f.pointer)}: {f.message} (RULES {f.rule})"
        for f in verdict.findings
    ]
    return FileDocument(read.path, document, notes=notes, valid=verdict.ok)


def _session(path: str) -> FileDocument:
    try:
        run = load_session(path).run
    except SiaError as exc:
        raise SideError(str(exc)) from None
    failed = run.failed_step
    if failed is not None and failed.step <= Step.SCHEMAS:
        raise SideError(
            f"{path}: the session's step {failed.step} ({failed.title}) failed; "
            "it holds no validated document"
        )
    document = run.answers.validated_document
    if document is None:
        raise SideError(f"{path}: the session holds no validated document")
    return FileDocument(path, document, run.answers.describe_task_id)


async def obtain_side(
    label: str,
    location: str,
    skill: str | None,
    options: ClientOptions,
    *,
    refuse_invalid: bool = True,
) -> FileDocument:
    """Side ``label``'s document: a file's (``skill``, when given, must be its skill), or an
    agent's through steps 1-6 (a card URL or file, and ``skill``). ``refuse_invalid``: a
    document file that fails steps 4-6 offline is refused, as a live one would be (RULES
    CP4-CP6); otherwise it comes back with ``valid`` False and its notes (``diff``)."""
    if os.path.isfile(location):
        try:
            read = read_input_file(location)
            found = None if read.kind is InputKind.CARD else document_from_file(read, skill)
        except SideError as exc:
            raise SideError(f"{label}: {exc}") from None
        if found is not None:
            if refuse_invalid and not found.valid:
                raise SideError(
                    f"{label}: {location} fails steps 4-6 offline ({'; '.join(found.notes)}); "
                    f"`sia-tui lint {location}` lists every problem"
                )
            found.label = label
            return found
    if skill is None:
        raise SideError(f"{label}: {location} is an Agent Card; name a skill: {location}#SKILL")
    obtained = await obtain_document(label, Target(location, skill_id=skill), options)
    failure = obtained.failure()
    if failure is not None or obtained.document is None:
        raise SideError(failure or f"{label}: no document")
    return FileDocument(f"{location}#{skill}", obtained.document, obtained.task_id, label=label)
