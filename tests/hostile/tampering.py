"""A session file as a person might hand-edit it: text appended to every free-text member."""

from __future__ import annotations

from typing import Any

#: Members of a session whose strings a person edits without the file failing to load.
FREE_TEXT = {
    "title", "message", "hint", "summary", "statement", "purpose", "created", "python",
    "platform", "where", "note", "error", "pointer", "expected", "actual", "keyword",
    "schema_path", "forensics", "name", "description", "version",
}  # fmt: skip
#: URLs get the payload percent-encoded (an escape, a C1 CSI, a bidi override).
_URL_PAYLOAD = "/%1B%5D0%3Bpwned%07%C2%9B2J%E2%80%AE"


def tamper(value: Any, payload: str, key: str = "") -> Any:
    """``value`` with ``payload`` appended to every free-text string, and every URL with
    its percent-encoded escapes."""
    if isinstance(value, dict):
        return {k: tamper(v, payload, k) for k, v in value.items()}
    if isinstance(value, list):
        return [tamper(v, payload, key) for v in value]
    if isinstance(value, str) and key in ("url", "location", "card_url"):
        return value + _URL_PAYLOAD
    if isinstance(value, str) and key in FREE_TEXT:
        return value + payload
    return value
