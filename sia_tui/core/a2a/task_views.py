"""Dialect-independent views of what a task exchanges: parts, messages, artifacts, tasks,
ListTasks pages and stream events (1.0 and 0.3 parse into these).

Apart from the card's views (``views.py``): the card on the first screen needs none of
these, and each frozen dataclass costs some 0.5 ms to create at import. Each view keeps
the ``raw`` JSON it was read from; the UI shows raw bytes from the Exchange, never a
re-serialization of these views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sia_tui.core.task_state import FINISHED_STATES


@dataclass(frozen=True)
class Part:
    """A message or artifact part: exactly one of data / text / raw / url."""

    kind: str
    value: Any
    media_type: str | None = None


@dataclass(frozen=True)
class Message:
    """An A2A Message."""

    message_id: str
    role: str  # "ROLE_USER" | "ROLE_AGENT" (0.3 roles are normalized)
    parts: tuple[Part, ...]
    raw: dict[str, Any]

    def data_parts(self) -> list[Any]:
        """The ``data`` values of every data part, in order."""
        return [p.value for p in self.parts if p.kind == "data"]


@dataclass(frozen=True)
class Artifact:
    """An A2A Artifact."""

    artifact_id: str
    name: str | None
    parts: tuple[Part, ...]
    raw: dict[str, Any]

    def data_parts(self) -> list[Any]:
        """The ``data`` values of every data part, in order."""
        return [p.value for p in self.parts if p.kind == "data"]


@dataclass(frozen=True)
class Task:
    """An A2A Task (state normalized to ``TASK_STATE_*`` whatever the dialect)."""

    id: str
    context_id: str | None
    #: A ``TaskState``; a state newer than this client (``TASK_STATE_PAUSED``) keeps its name.
    state: str
    status_message: Message | None
    artifacts: tuple[Artifact, ...]
    raw: dict[str, Any]
    #: The task's history (the messages exchanged so far, as the agent keeps them), read
    #: so that a report can show it; empty when the agent sends none. Read from ``raw``,
    #: so not compared: a task saved before history was read is the same task.
    history: tuple[Message, ...] = field(default=(), compare=False)

    @property
    def terminal(self) -> bool:
        """True once the task will not change any more (or waits for the user)."""
        return self.state in FINISHED_STATES


@dataclass(frozen=True)
class TaskPage:
    """One page of ListTasks: the tasks, and the token of the next page ("" on the last)."""

    tasks: tuple[Task, ...]
    next_page_token: str
    #: How many tasks the agent says match in all, when it says.
    total_size: int | None = None
    #: Tasks on the page that could not be read, counted (and their first problem).
    unreadable: int = 0
    problem: str | None = None


@dataclass(frozen=True)
class StreamEvent:
    """One SSE event, normalized: kind is "task", "message", "status" or "artifact"."""

    kind: str
    task: Task | None = None
    message: Message | None = None
    #: For "status" events: the new state and its optional message.
    state: str | None = None
    status_message: Message | None = None
    #: For "artifact" events.
    artifact: Artifact | None = None
    append: bool = False
    last_chunk: bool = False
    #: 0.3 ``final: true`` flag, or a terminal/interrupted state.
    final: bool = False
    raw: dict[str, Any] = field(default_factory=dict)
