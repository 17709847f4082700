"""Assembling a Task from streamed events (RULES INV10: records may arrive first)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sia_tui.core.task_state import TaskState

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import Artifact, Message, Part, StreamEvent, Task


class TaskAssembly:
    """The task as the stream has described it so far."""

    def __init__(self) -> None:
        self.task_id = ""
        self.context_id: str | None = None
        self.state: str = TaskState.SUBMITTED
        self.status_message: Message | None = None
        #: Artifacts by id, in arrival order; ``append`` chunks extend their parts.
        self.artifacts: dict[str, Artifact] = {}
        #: Parts of each artifact, grown in place: a flood of appends costs linear time.
        self._parts: dict[str, list[Part]] = {}
        self.status_log: list[str] = []

    def apply(self, event: StreamEvent) -> None:
        """Fold one event into the assembled task."""
        if event.task is not None:
            self.adopt(event.task)
        if event.kind == "status" and event.state:
            self.state = event.state
            self.status_message = event.status_message
            self.status_log.append(event.state)
        if event.artifact is not None:
            self._add_artifact(event.artifact, event.append)

    def adopt(self, task: Task) -> None:
        """Take a whole Task snapshot (first event, or a final resend)."""
        self.task_id, self.context_id = task.id, task.context_id
        self.state, self.status_message = task.state, task.status_message
        for artifact in task.artifacts:
            self._add_artifact(artifact, append=False)

    def _add_artifact(self, artifact: Artifact, append: bool) -> None:
        key = artifact.artifact_id
        if append and key in self.artifacts:
            self._parts[key].extend(artifact.parts)
        else:
            self.artifacts[key] = artifact
            self._parts[key] = list(artifact.parts)

    def status_summary(self) -> list[str]:
        """The states in order, a repeated state once with its count (``WORKING ×5000``)."""
        summary: list[tuple[str, int]] = []
        for state in self.status_log:
            if summary and summary[-1][0] == state:
                summary[-1] = (state, summary[-1][1] + 1)
            else:
                summary.append((state, 1))
        return [state if count == 1 else f"{state} ×{count}" for state, count in summary]

    def task(self) -> Task:
        """The assembled view (``raw`` is empty: the raw bytes are in the exchange)."""
        from sia_tui.core.a2a.task_views import Task  # loaded with the task views it assembled

        return Task(
            self.task_id,
            self.context_id,
            self.state,
            self.status_message,
            tuple(replace(a, parts=tuple(self._parts[k])) for k, a in self.artifacts.items()),
            {},
        )
