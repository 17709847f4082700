"""What sia-tui reads although A2A 1.0 says otherwise, each with a located warning.

docs/WIRE.md promises a warning for everything forgiven; the readers in ``objects.py`` and
``card.py`` stay lenient (an answer is still shown), and these functions say where the
answer or the card departs from 1.0 and what 1.0 expects there. Walks only the members
an answer has (status message, artifacts, history), with at most ``MAX_FORGIVEN``
warnings per answer.
"""

from __future__ import annotations

from typing import Any

from sia_tui.core.jsonkit.pointer import escape

#: Warnings one answer may add (the rest are not listed: the first ones show the pattern).
MAX_FORGIVEN = 20

#: The warning texts, one per forgiveness (docs/WIRE.md lists them word for word).
FILE_03 = (
    "at {at}: a 0.3-style file part ('file' with 'bytes' or 'uri') in an A2A 1.0 answer, "
    "read as its bytes or URL; A2A 1.0 expects 'raw' (base64) or 'url' on the part itself, "
    "with 'mediaType' and 'filename'"
)
FILE_URL = (
    "at {at}: a 'fileUrl' part, read as kind unknown (its URL is not followed); A2A 1.0 "
    "expects 'url'"
)
NO_MESSAGE_ID = (
    "at {at}: a history message without 'messageId'; A2A 1.0 requires a messageId on every Message"
)
NO_DEFAULT_MODES = (
    "at {at}: the card has no '{member}'; A2A 1.0 requires it (the media types the agent "
    'accepts or sends by default, e.g. ["text/plain"])'
)


def card_warnings(card: dict[str, Any]) -> list[str]:
    """The REQUIRED default modes a 1.0 card lacks (read as if empty)."""
    return [
        NO_DEFAULT_MODES.format(at="/" + member, member=member)
        for member in ("defaultInputModes", "defaultOutputModes")
        if not isinstance(card.get(member), list)
    ]


def answer_warnings(raw: Any, at: str = "") -> list[str]:
    """The 0.3 forms and missing members of a 1.0 Task or Message (``raw``) found at
    ``at`` (the answer's pointer in the response, e.g. ``/result/task``)."""
    found: list[str] = []
    if not isinstance(raw, dict):
        return found
    status = raw.get("status")
    if isinstance(status, dict) and isinstance(status.get("message"), dict):
        _parts(status["message"], f"{at}/status/message", found)
    if "parts" in raw:  # a Message
        _parts(raw, at, found)
    for index, artifact in _items(raw.get("artifacts")):
        _parts(artifact, f"{at}/artifacts/{index}", found)
    for index, message in _items(raw.get("history")):
        where = f"{at}/history/{index}"
        if not isinstance(message.get("messageId"), str) or not message["messageId"]:
            found.append(NO_MESSAGE_ID.format(at=where))
        _parts(message, where, found)
    return found[:MAX_FORGIVEN]


def answered(what: str, raw: Any) -> list[str]:
    """:func:`answer_warnings` of the ``what`` (Task, Message...) an agent answered, each
    saying where it was found ("in the Task answered, at /history/0: ...")."""
    return [f"in the {what} answered, {warning}" for warning in answer_warnings(raw)]


def _items(value: Any) -> list[tuple[int, dict[str, Any]]]:
    if not isinstance(value, list):
        return []
    return [
        (i, item) for i, item in enumerate(value[: MAX_FORGIVEN * 10]) if isinstance(item, dict)
    ]


def _parts(container: dict[str, Any], at: str, found: list[str]) -> None:
    for index, part in _items(container.get("parts")):
        if len(found) >= MAX_FORGIVEN:
            return
        where = f"{at}/parts/{index}"
        if "kind" in part:
            continue  # a 0.3 part in a 0.3 shape: the dialect says so already
        if isinstance(part.get("file"), dict):
            found.append(FILE_03.format(at=f"{where}/{escape('file')}"))
        elif "fileUrl" in part:
            found.append(FILE_URL.format(at=f"{where}/fileUrl"))
