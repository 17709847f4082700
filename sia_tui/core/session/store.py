"""Saving and loading session files: atomic writes, clear load errors, fail-closed redaction."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.atomic_file import atomic_write
from sia_tui.core.errors import FileInputError, JsonInputError
from sia_tui.core.jsonkit.strictjson import count_values, loads, structural_count
from sia_tui.core.local_file import read_regular_file
from sia_tui.core.redaction.redact import RedactionHit, Redactor
from sia_tui.core.run.read_model import Run
from sia_tui.core.session.dataclass_json import SessionError
from sia_tui.core.session.format import (
    LoadedSession,
    body_texts,
    build_document,
    digested_bodies,
    document_ranges,
    read_document,
    sent_side,
)
from sia_tui.core.session.writer import session_text

#: Largest session file this tool will read (untrusted input).
MAX_SESSION_BYTES = 256 * 1024 * 1024
#: Most JSON values a session file may hold (memory, not size: a value costs 50-270
#: bytes once decoded, so this keeps reading one under ~300 MB). A full run holds a few
#: thousand; sia-tui refuses to write a session it would refuse to read.
MAX_SESSION_VALUES = 1_000_000


@dataclass(frozen=True)
class SavedSession:
    """Where a session was written, how big it is and what was redacted."""

    path: Path
    size: int
    redactions: list[RedactionHit]


def make_redactor(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> Redactor:
    """The redactor for this run's options, target, marked values and marked headers."""
    return Redactor.from_options(
        options,
        location=run.target.location,
        secret_values=secret_values,
        secret_headers=secret_headers,
        issued=run.issued.pairs(),
    )


def preview_redactions(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
    *,
    probe: dict[str, Any] | None = None,
) -> list[RedactionHit]:
    """What saving would redact, and where (for the preview screen); writes nothing."""
    redactor = make_redactor(run, options, secret_values, secret_headers)
    build_document(run, options, redactor, probe=probe)
    return list(redactor.hits)


@dataclass(frozen=True)
class RenderedSession:
    """A session ready to write: its text and UTF-8 bytes, redactions, and the redacted
    document the text was written from (read it instead of parsing the text again)."""

    text: str
    data: bytes
    hits: list[RedactionHit]
    document: dict[str, Any]


def render_document(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
    *,
    probe: dict[str, Any] | None = None,
    fuzz: dict[str, Any] | None = None,
) -> RenderedSession:
    """The session file's text, bytes, redactions and document (saving and autosave);
    refuses to return text with a known secret."""
    redactor = make_redactor(run, options, secret_values, secret_headers)
    document = build_document(run, options, redactor, probe=probe, fuzz=fuzz)
    text = session_text(document) + "\n"
    # Credentials must be nowhere; marked values nowhere on the side that sent them. The
    # decoded values are searched, in every escape form: a body echoing
    # a secret as \u0042\u0065... holds it as surely as one echoing it literally.
    found = set(redactor.leaks_in(document, marked=False))
    found.update(redactor.leaks_in(sent_side(document)))
    for body in digested_bodies(document):  # marked values only inside the document there
        found.update(redactor.leaks(body, keep=document_ranges))
    leaks = sorted(found)
    if leaks:  # by construction this cannot happen; never write a secret if it does
        raise SessionError(f"refusing to save: a secret ({', '.join(leaks)}) survived redaction")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: the file would not be UTF-8
        raise SessionError(f"refusing to save: {exc.reason} at character {exc.start}") from None
    values = _values_bound(data, document)
    if values > MAX_SESSION_VALUES:
        values = count_values(data, MAX_SESSION_VALUES)
    if values > MAX_SESSION_VALUES:
        raise SessionError(
            f"refusing to save: the session would hold about {values} JSON values, more than "
            f"the {MAX_SESSION_VALUES} a session may hold to be read back"
        )
    return RenderedSession(text, data, list(redactor.hits), document)


def as_saved(
    run: Run,
    options: ClientOptions,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
) -> LoadedSession:
    """A live run as its saved session would read back: redacted by the very path that
    saves it (the live HAR and the live OTLP export are built from it)."""
    rendered = render_document(run, options, secret_values, secret_headers)
    return read_document(rendered.document)


def _values_bound(data: bytes, document: dict[str, Any]) -> int:
    """At least the number of values in ``data``, quickly: its commas and brackets, less
    those inside the recorded bodies (strings, which hold most of them: escaping adds or
    removes none). Exact counting removes every string first (:func:`count_values`)."""
    inside = sum(structural_count(text) - 1 for text in body_texts(document))
    return structural_count(data) - inside


def save_session(
    run: Run,
    options: ClientOptions,
    path: str | os.PathLike[str],
    *,
    secret_values: Iterable[str] = (),
    secret_headers: Iterable[str] = (),
    probe: dict[str, Any] | None = None,
    fuzz: dict[str, Any] | None = None,
) -> SavedSession:
    """Redact and save ``run`` to ``path`` atomically (``sia-tui check --save FILE``).

    ``probe``: the ``probe`` member of a ``sia-tui probe`` session (see ``core/probe``);
    ``fuzz``: the ``fuzz`` member of a ``sia-tui fuzz`` session (see ``core/fuzz``).
    """
    rendered = render_document(run, options, secret_values, secret_headers, probe=probe, fuzz=fuzz)
    target = Path(path)
    try:
        atomic_write(target, rendered.data)
    except OSError as exc:
        raise SessionError(f"cannot write {target}: {exc.strerror or exc}") from None
    return SavedSession(target, len(rendered.data), rendered.hits)


def _check_values(raw: bytes, source: str) -> None:
    """Refuse a file of too many values before it is decoded: a crafted one would take gigabytes."""
    values = count_values(raw, MAX_SESSION_VALUES)
    if values > MAX_SESSION_VALUES:
        raise SessionError(
            f"{source}: more than {MAX_SESSION_VALUES} JSON values ({values}); a session "
            "holds a few thousand, and reading this many would take gigabytes"
        )


def _parse_counted(text: str | bytes, source: str) -> LoadedSession:
    try:
        # The same strict loader as for agent bytes: a hand-edited file with a duplicate
        # member must not silently lose one of the two values.
        data: Any = loads(text, source=source, max_bytes=MAX_SESSION_BYTES)
    except JsonInputError as exc:
        size = len(text)
        hint = (
            " (the file looks truncated)"
            if exc.offset is not None and exc.offset >= size - 1
            else ""
        )
        raise SessionError(
            f"{source}: not valid JSON at line {exc.line} column {exc.column}: {exc.message}{hint}"
        ) from None
    try:
        return read_document(data, source)
    except SessionError as exc:
        raise SessionError(f"{source}: {exc}") from None


def load_session(path: str | os.PathLike[str]) -> LoadedSession:
    """Load a session file; manifest mismatches become ``warnings``, defects SessionError."""
    source = Path(path)
    try:
        read = read_regular_file(source, MAX_SESSION_BYTES)
    except FileInputError as exc:
        raise SessionError(str(exc)) from None
    if len(read.data) > MAX_SESSION_BYTES:
        raise SessionError(
            f"{source}: {read.size} bytes is larger than the "
            f"{MAX_SESSION_BYTES} byte limit for session files"
        )
    raw = read.data
    _check_values(raw, str(source))  # on the bytes: before a decoded copy exists
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SessionError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    del raw
    return _parse_counted(text, str(source))
