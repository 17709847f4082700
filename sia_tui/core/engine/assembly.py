"""Assembling a Task from streamed events (RULES INV10: records may arrive first)."""

from __future__ import annotations

from dataclasses import replace

from sia_tui.core.a2a.model import Artifact, Message, StreamEvent, Task


class TaskAssembly:
    """The task as the stream has described it so far."""

    def __init__(self) -> None:
        self.task_id = ""
        self.context_id: str | None = None
        self.state = "TASK_STATE_SUBMITTED"
        self.status_message: Message | None = None
        #: Artifacts by id, in arrival order; ``append`` chunks extend their parts.
        self.artifacts: dict[str, Artifact] = {}
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
            self.artifacts[artifact.artifact_id] = artifact

    def _add_artifact(self, artifact: Artifact, append: bool) -> None:
        known = self.artifacts.get(artifact.artifact_id)
        if append and known is not None:
            self.artifacts[artifact.artifact_id] = replace(
                known, parts=known.parts + artifact.parts
            )
        else:
            self.artifacts[artifact.artifact_id] = artifact

    def task(self) -> Task:
        """The assembled view (``raw`` is empty: the raw bytes are in the exchange)."""
        return Task(
            self.task_id,
            self.context_id,
            self.state,
            self.status_message,
            tuple(self.artifacts.values()),
            {},
        )
