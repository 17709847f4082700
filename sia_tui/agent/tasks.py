"""In-memory A2A tasks (bounded) with the events subscribers of a stream receive."""

from __future__ import annotations

import asyncio
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sia_tui.agent.tracing import METADATA_KEY, incoming_trace_id
from sia_tui.core.task_state import INTERRUPTED_STATES, TERMINAL_STATES, TaskState


def now() -> str:
    """ISO 8601 UTC timestamp with ``Z`` (A2A §5.6.1)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def data_part(data: Any) -> dict[str, Any]:
    """A 1.0 data part."""
    return {"data": data, "mediaType": "application/json"}


@dataclass
class TaskRecord:
    """One task in A2A 1.0 shape; ``events`` is what a stream sends after the first snapshot."""

    id: str
    context_id: str
    history: list[dict[str, Any]]
    state: str = TaskState.SUBMITTED
    status_message: dict[str, Any] | None = None
    timestamp: str = field(default_factory=now)
    artifacts: list[dict[str, Any]] = field(default_factory=list)
    subscribers: list[asyncio.Queue[dict[str, Any]]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None
    cancellable: bool = False
    #: Set while the task waits for a follow-up message (INPUT_REQUIRED, AUTH_REQUIRED).
    waiter: asyncio.Future[dict[str, Any]] | None = None
    #: The W3C trace id of the call that started the task, echoed in its metadata.
    trace_id: str | None = None

    @property
    def finished(self) -> bool:
        """Terminal or interrupted: nothing more will happen."""
        return self.state in TERMINAL_STATES or self.state in INTERRUPTED_STATES

    def snapshot(
        self, history_length: int | None = None, *, artifacts: bool = True
    ) -> dict[str, Any]:
        """The 1.0 Task object: the last ``history_length`` messages of its history (all
        when None, none at 0), its artifacts unless ``artifacts`` is False."""
        status: dict[str, Any] = {"state": self.state, "timestamp": self.timestamp}
        if self.status_message is not None:
            status["message"] = self.status_message
        task: dict[str, Any] = {"id": self.id, "contextId": self.context_id, "status": status}
        if self.artifacts and artifacts:
            task["artifacts"] = list(self.artifacts)
        if self.trace_id is not None:  # the client's trace, so both logs join (tracing.py)
            task["metadata"] = {METADATA_KEY: self.trace_id}
        if history_length is None:
            task["history"] = list(self.history)
        elif history_length > 0:
            task["history"] = self.history[-history_length:]
        return task

    def agent_message(self, parts: list[dict[str, Any]]) -> dict[str, Any]:
        """An agent-role Message bound to this task."""
        return {
            "messageId": str(uuid.uuid4()),
            "role": "ROLE_AGENT",
            "parts": parts,
            "taskId": self.id,
            "contextId": self.context_id,
        }

    def _publish(self, event: dict[str, Any]) -> None:
        for queue in self.subscribers:
            queue.put_nowait(event)

    def set_status(self, state: str, message: dict[str, Any] | None = None) -> None:
        """Move to ``state`` and tell every subscriber."""
        self.state, self.status_message, self.timestamp = state, message, now()
        status: dict[str, Any] = {"state": state, "timestamp": self.timestamp}
        if message is not None:
            status["message"] = message
        self._publish(
            {"statusUpdate": {"taskId": self.id, "contextId": self.context_id, "status": status}}
        )

    def add_artifact(self, artifact: dict[str, Any]) -> None:
        """Attach a complete Artifact and tell every subscriber."""
        self.artifacts.append(artifact)
        self._publish(
            {
                "artifactUpdate": {
                    "taskId": self.id,
                    "contextId": self.context_id,
                    "artifact": artifact,
                    "lastChunk": True,
                }
            }
        )

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue that receives every later event of this task."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.subscribers.append(queue)
        return queue


class TaskStore:
    """Bounded task memory: at capacity, the oldest task is forgotten."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._tasks: OrderedDict[str, TaskRecord] = OrderedDict()

    def create(self, user_message: dict[str, Any]) -> TaskRecord:
        """A new SUBMITTED task for ``user_message``."""
        context = user_message.get("contextId")
        record = TaskRecord(
            id=str(uuid.uuid4()),
            context_id=context
            if isinstance(context, str) and len(context) < 200
            else str(uuid.uuid4()),
            history=[user_message],
            trace_id=incoming_trace_id(),
        )
        while len(self._tasks) >= self._capacity:
            _, evicted = self._tasks.popitem(last=False)
            if evicted.runner is not None and not evicted.runner.done():
                evicted.runner.cancel()
            if not evicted.finished:
                evicted.set_status(TaskState.CANCELED)  # ends any stream still following it
        self._tasks[record.id] = record
        return record

    def get(self, task_id: str) -> TaskRecord | None:
        """The task with ``task_id``, if remembered."""
        return self._tasks.get(task_id)

    def newest_first(self) -> list[TaskRecord]:
        """Every remembered task, the most recently updated status first (ListTasks'
        order, A2A 1.0 section 3.1.4); ties keep the newest task first."""
        tasks = list(reversed(self._tasks.values()))
        return sorted(tasks, key=lambda task: task.timestamp, reverse=True)
