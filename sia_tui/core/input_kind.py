"""What kind of file a user named: a card, a document, a session, a report, something else.

Read once here, so that every command that takes a file (``compose``, ``diff``) says the
same thing about a file of another kind, and which command fits it: a JUnit report given
to ``compose`` is answered with "a JUnit report; CI reads it", never with "the card
declares no callable interface". Only the file's first bytes and, for JSON, the parsed
value's top-level members are read: nothing here follows what a file names (RULES SR7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sia_tui.core.constants import DIGEST_MEMBER, DOCUMENT_MEMBER

_TOML_TABLE = re.compile(rb"\[\[?[a-z_]")


class InputKind(StrEnum):
    """The kinds of file sia-tui reads or writes, and ``unknown``."""

    CARD = "card"
    DOCUMENT = "document"
    PAYLOAD = "payload"
    SESSION = "session"
    LOCK = "lock"
    KEYS = "keys"
    CHECK_REPORT = "check-report"
    PROBE_REPORT = "probe-report"
    MATRIX_REPORT = "matrix-report"
    HAR = "har"
    JUNIT = "junit"
    HTML = "html"
    MARKDOWN = "markdown"
    PLUGFEST = "plugfest"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class KindInfo:
    """How a kind is named to a person, and the command that reads it."""

    what: str
    fits: str


_INFO = {
    InputKind.CARD: KindInfo("an Agent Card", "`sia-tui check CARD --skill ID` checks it"),
    InputKind.DOCUMENT: KindInfo(
        "a Skill Interface Document", "`sia-tui lint FILE` checks it offline"
    ),
    InputKind.PAYLOAD: KindInfo(
        "a describe_skill payload (a document and its digest)", "`sia-tui lint FILE` checks it"
    ),
    InputKind.SESSION: KindInfo(
        "a saved session", "`sia-tui replay FILE` re-validates it, `sia-tui open FILE` shows it"
    ),
    InputKind.LOCK: KindInfo(
        "a contract lock (sia-lock/1)", "`sia-tui check CARD --lock FILE` compares with it"
    ),
    InputKind.KEYS: KindInfo(
        "a JWKS of trusted keys", "`sia-tui check CARD --trusted-keys FILE` reads it"
    ),
    InputKind.CHECK_REPORT: KindInfo(
        "a `check --json` report",
        "it holds no document: save the run with `sia-tui check --save FILE` and use that",
    ),
    InputKind.PROBE_REPORT: KindInfo(
        "a `probe --json` report",
        "it holds no document: `sia-tui probe --save FILE` saves a session to use instead",
    ),
    InputKind.MATRIX_REPORT: KindInfo(
        "a `matrix --json` report", "each cell's session file (`session`) is what to use"
    ),
    InputKind.HAR: KindInfo(
        "a HAR file of exchanges", "browser devtools, Charles or Insomnia open it"
    ),
    InputKind.JUNIT: KindInfo(
        "a JUnit XML report", "CI reads it; the session file of the run is what to use"
    ),
    InputKind.HTML: KindInfo(
        "an HTML file (a bug report?)", "a browser opens it; its session file is what to use"
    ),
    InputKind.MARKDOWN: KindInfo(
        "a Markdown file (a bug report?)", "its session file is what to use"
    ),
    InputKind.PLUGFEST: KindInfo("a plugfest file", "`sia-tui matrix FILE` runs it"),
    InputKind.UNKNOWN: KindInfo(
        "not a file sia-tui knows",
        "a card, a Skill Interface Document, a describe_skill payload or a session is",
    ),
}


def describe(kind: InputKind) -> KindInfo:
    """How ``kind`` is named, and which command fits it."""
    return _INFO[kind]


def kind_of_text(head: bytes) -> InputKind | None:
    """The kind of a file that is not JSON, from its first bytes; None when it may be JSON."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if _TOML_TABLE.match(text):  # ``[[agent]]``, ``[plugfest]``: TOML tables, not JSON
        return _toml(text)
    if text.startswith((b"{", b"[")):
        return None
    if text.startswith(b"<?xml") or text.startswith(b"<testsuite"):
        return InputKind.JUNIT if b"<testsuite" in text else InputKind.UNKNOWN
    if text.startswith((b"<!doctype html", b"<html")):
        return InputKind.HTML
    if text.startswith(b"#") and not text.startswith(b"#!"):
        # A Markdown title, or a TOML comment above a plugfest's tables.
        return InputKind.MARKDOWN if _toml(text) is InputKind.UNKNOWN else InputKind.PLUGFEST
    return _toml(text)


def _toml(text: bytes) -> InputKind:
    return InputKind.PLUGFEST if b"[[agent]]" in text or b"[[skill]]" in text else InputKind.UNKNOWN


def kind_of_json(value: Any) -> InputKind:
    """The kind of a parsed JSON file, from its top-level members."""
    if not isinstance(value, dict):
        return InputKind.UNKNOWN
    fmt = value.get("format")
    if isinstance(fmt, str):
        for prefix, kind in (
            ("sia-session/", InputKind.SESSION),
            ("sia-lock/", InputKind.LOCK),
            ("sia-probe-report/", InputKind.PROBE_REPORT),
        ):
            if fmt.startswith(prefix):
                return kind
    if DOCUMENT_MEMBER in value and DIGEST_MEMBER in value:
        return InputKind.PAYLOAD
    if "interface_version" in value and ("input_schema" in value or "skill_id" in value):
        return InputKind.DOCUMENT
    if isinstance(value.get("skills"), list):
        return InputKind.CARD
    if isinstance(value.get("log"), dict) and "entries" in value["log"]:
        return InputKind.HAR
    if isinstance(value.get("keys"), list):
        return InputKind.KEYS
    if "plugfest" in value and "rows" in value:
        return InputKind.MATRIX_REPORT
    if "steps" in value and "outcome" in value:
        return InputKind.CHECK_REPORT
    return InputKind.UNKNOWN


def wrong_kind(path: str, kind: InputKind, wanted: str) -> str:
    """The sentence for a file of ``kind`` where ``wanted`` was expected."""
    info = describe(kind)
    return f"{path} is {info.what}, not {wanted}; {info.fits}"
