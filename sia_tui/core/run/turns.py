"""Multi-turn tasks: the agent's question when a task stops in INPUT_REQUIRED or
AUTH_REQUIRED, and the user's reply sent on the same taskId (A2A 1.0 section 3.4.3).

Each turn is kept in the run (``RunState.turns``), so reports, sessions and replay show
every question and reply. A reply is never validated: interface 1.0 defines no schema for
follow-up data (RULES INV11).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sia_tui.core.a2a.task_views import Task
from sia_tui.core.errors import JsonInputError
from sia_tui.core.jsonkit.strictjson import loads, read_json_file
from sia_tui.core.limits import MAX_QUESTION_CHARS
from sia_tui.core.task_state import TaskState

#: Why a reply is shown unvalidated (RULES INV11).
UNVALIDATED = "unvalidated: interface 1.0 defines no schema for follow-up data (RULES INV11)"


class PartKind(StrEnum):
    """What the one part of a message the user writes is: a text part, or a data part (a
    JSON value); a reply, or the console's message."""

    TEXT = "text"
    DATA = "data"


@dataclass(frozen=True)
class Reply:
    """The user's answer to an interrupted task, before it is sent."""

    kind: PartKind
    value: Any

    @classmethod
    def text(cls, text: str) -> Reply:
        """A reply of one text part."""
        return cls(PartKind.TEXT, text)

    @classmethod
    def data(cls, value: Any) -> Reply:
        """A reply of one data part (any JSON value)."""
        return cls(PartKind.DATA, value)


@dataclass
class Turn:
    """One question of an interrupted task and the reply to it (None until given)."""

    #: ``TASK_STATE_INPUT_REQUIRED`` or ``TASK_STATE_AUTH_REQUIRED``.
    state: str
    #: The agent's status message as text (untrusted: shown literally, cut when long).
    question: str
    asked_at: str
    reply_kind: PartKind | None = None
    reply: Any = None
    #: When the reply was sent; None while it waits to be sent.
    sent_at: str | None = None
    #: Why the reply was not checked against a schema.
    validation: str = UNVALIDATED

    @property
    def answered(self) -> bool:
        """True once the user gave a reply (sent or about to be)."""
        return self.reply_kind is not None

    @property
    def needs(self) -> str:
        """What the agent waits for: "input" or "authorization"."""
        return "authorization" if self.state == TaskState.AUTH_REQUIRED else "input"

    def sent_reply(self) -> Reply | None:
        """The reply as it was sent (replay sends it again), or None when none was."""
        if self.reply_kind is None or self.sent_at is None:
            return None
        return Reply(self.reply_kind, self.reply)

    def reply_text(self) -> str:
        """The reply as one line of text: the text itself, or the data as compact JSON."""
        if self.reply_kind is PartKind.DATA:
            return json.dumps(self.reply, ensure_ascii=False, separators=(",", ":"))
        return str(self.reply) if self.reply is not None else ""


def turn_lines(turns: list[Turn], *, how_to_reply: str = "") -> list[str]:
    """Each turn as plain lines (agent text not yet made printable: the caller's gate).
    ``how_to_reply`` ends the line of a question not answered: the surface's own way to
    answer ("answer it with --reply"), which the engine does not know."""
    lines = []
    for number, turn in enumerate(turns, 1):
        lines.append(f"turn {number}: {turn.state}; the agent asks: {turn.question}")
        if turn.reply_kind is None:
            how = f"; {how_to_reply}" if how_to_reply else ""
            lines.append(f"  no reply given: the task still waits{how}")
        else:
            sent = f"sent {turn.sent_at}" if turn.sent_at else "not sent yet"
            lines.append(f"  reply ({turn.reply_kind} part, {sent}, {turn.validation}):")
            lines.append(f"  {turn.reply_text()}")
    return lines


def now() -> str:
    """An ISO 8601 UTC time, as the turns record it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def question_of(task: Task) -> str:
    """The agent's question: its status message's text parts, data parts as JSON."""
    message = task.status_message
    pieces: list[str] = []
    for part in message.parts if message is not None else ():
        if part.kind == "text" and isinstance(part.value, str):
            pieces.append(part.value)
        elif part.kind == "data":
            pieces.append(json.dumps(part.value, ensure_ascii=False, separators=(",", ":")))
    text = "\n".join(pieces) or "(the agent's status message says nothing)"
    if len(text) > MAX_QUESTION_CHARS:
        text = text[:MAX_QUESTION_CHARS] + f"... ({len(text) - MAX_QUESTION_CHARS} more characters)"
    return text


def reply_argument(spec: str) -> Reply:
    """A reply as ``check --reply`` takes it: ``TEXT``; ``@FILE``, a ``.json`` file giving
    one data part (strict JSON) and any other file one text part (UTF-8); ``@@TEXT`` for
    a text that starts with ``@``. Errors are JsonInputError, naming the file."""
    if spec.startswith("@@") or not spec.startswith("@"):
        return Reply.text(spec[1:] if spec.startswith("@@") else spec)
    path = spec[1:]
    data = read_json_file(path)  # a regular file, bounded, whatever it holds
    if path.lower().endswith(".json"):
        return Reply.data(loads(data, source=path))
    try:
        return Reply.text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise JsonInputError("the reply file is not UTF-8 text", source=path) from exc


def new_turn(task: Task) -> Turn:
    """The turn an interrupted ``task`` opens."""
    return Turn(state=task.state, question=question_of(task), asked_at=now())
