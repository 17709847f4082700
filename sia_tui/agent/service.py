"""Binding-independent A2A operations: send (sync or poll), stream, get, cancel."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.documents import build_documents
from sia_tui.agent.errors import (
    OperationError,
    invalid_params,
    task_not_found,
    unsupported,
)
from sia_tui.agent.executor import SkillExecutor
from sia_tui.agent.plain import converse, is_plain, message_reply
from sia_tui.agent.task_query import history_length, list_page, list_query
from sia_tui.agent.tasks import TaskRecord, TaskStore
from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.task_state import INTERRUPTED_STATES, TERMINAL_STATES, TaskState

#: Called with a new task before it runs (``AgentService.send``, ``stream``).
Starting = Callable[[TaskRecord], None] | None


def is_final(state: str) -> bool:
    """A stream ends at a terminal or interrupted state (1.0 has no ``final`` flag)."""
    return state in TERMINAL_STATES or state in INTERRUPTED_STATES


def skill_request(message: dict[str, Any]) -> Any:
    """The data of the message's only data part (RULES INV1, DS1), else None."""
    parts = message.get("parts")
    if not isinstance(parts, list):
        return None
    data_parts = [p for p in parts if isinstance(p, dict) and "data" in p]
    return data_parts[0]["data"] if len(data_parts) == 1 else None


#: Message members under their proto names: ProtoJSON parsers accept both spellings.
_PROTO_NAMES = {
    "message_id": "messageId",
    "context_id": "contextId",
    "task_id": "taskId",
    "reference_task_ids": "referenceTaskIds",
}


def _camel_case(message: dict[str, Any]) -> dict[str, Any]:
    """The message with proto-named members under their JSON names (the JSON name wins)."""
    if not any(name in message for name in _PROTO_NAMES):
        return message
    renamed = {_PROTO_NAMES.get(k, k): v for k, v in message.items() if k in _PROTO_NAMES}
    return {**renamed, **{k: v for k, v in message.items() if k not in _PROTO_NAMES}}


def check_message(params: Any) -> dict[str, Any]:
    """The user message of SendMessage params, or invalid params: ``messageId`` and a
    non-empty ``parts`` list are required (``a2a.proto`` ``Message``, REQUIRED fields)."""
    message = params.get("message") if isinstance(params, dict) else None
    if (
        not isinstance(message, dict)
        or not isinstance(message.get("parts"), list)
        or not message["parts"]
    ):
        raise invalid_params("params.message with a non-empty parts list is required")
    message = params["message"] = _camel_case(message)
    message_id = message.get("messageId")
    if not isinstance(message_id, str) or not message_id:
        raise invalid_params("params.message.messageId is required (a non-empty string)")
    return message


class AgentService:
    """One agent's documents, task memory and executor."""

    def __init__(self, config: AgentConfig) -> None:
        self.config = config
        self.documents = build_documents(config)
        self.store = TaskStore(config.max_tasks)
        self.executor = SkillExecutor(config, self.documents)

    def is_describe(self, message: dict[str, Any]) -> bool:
        """True when the message asks for describe_skill."""
        request = skill_request(message)
        return isinstance(request, dict) and request.get("skill") == DESCRIBE_SKILL

    def _start(self, message: dict[str, Any]) -> TaskRecord:
        request = skill_request(message)
        task = self.store.create(message)
        skill = request.get("skill") if isinstance(request, dict) else None
        frozen = self.documents.get(skill) if isinstance(skill, str) else None
        task.cancellable = is_plain(message) or (frozen is not None and frozen.spec.cancellable)
        return task

    def _run(self, task: TaskRecord, message: dict[str, Any], immediate: bool = False) -> None:
        if is_plain(message):  # no data part: a plain-A2A task (agent/plain.py)
            work = self.config.plain_work_seconds if immediate else 0.0
            task.runner = asyncio.create_task(converse(task, message, work))
            return
        task.runner = asyncio.create_task(self.executor.run(task, skill_request(message)))

    def _follow_up(self, message: dict[str, Any]) -> TaskRecord | None:
        """The waiting task a message with a ``taskId`` continues (A2A 1.0 section 3.4.3),
        or None for a message that starts a new task."""
        task_id = message.get("taskId")
        if task_id is None:
            return None
        task = self.store.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            raise task_not_found(task_id)
        context = message.get("contextId")
        if context is not None and context != task.context_id:
            raise invalid_params("message.contextId is not the context of message.taskId")
        if task.waiter is None or task.waiter.done():
            raise unsupported(f"task {task.id} does not wait for input (state {task.state})")
        return task

    def _task_for(self, message: dict[str, Any], on_start: Starting) -> tuple[TaskRecord, bool]:
        """The waiting task ``message`` continues (and True), or a new task for it, shown to
        ``on_start`` before it runs (and False)."""
        waiting = self._follow_up(message)
        if waiting is not None:
            return waiting, True
        task = self._start(message)
        if on_start is not None:
            on_start(task)
        return task, False

    def _resume(self, task: TaskRecord, message: dict[str, Any]) -> None:
        """Hand the follow-up to the waiting skill; WORKING at once, so the snapshot a
        stream opens with is not the interrupted state it left."""
        assert task.waiter is not None
        task.history.append(message)
        task.set_status(TaskState.WORKING)
        task.waiter.set_result(message)

    async def send(self, params: Any, on_start: Starting = None) -> TaskRecord:
        """SendMessage: block to a terminal or interrupted state, or return early on
        returnImmediately; a message naming a waiting task's taskId continues it.
        ``on_start`` sees a new task before it runs (a push sender subscribes then)."""
        message = check_message(params)
        configuration = params.get("configuration")
        immediate = (
            isinstance(configuration, dict) and configuration.get("returnImmediately") is True
        )
        task, follows = self._task_for(message, on_start)
        queue = task.subscribe()
        try:
            if follows:
                self._resume(task, message)
            else:
                self._run(task, message, immediate)
            if immediate:
                await asyncio.sleep(0)  # the synchronous checks run: REJECTED comes back at once
            else:
                # Until a final status: a CancelTask must not cancel this request, and a task
                # that asks for input answers now (its runner waits for the follow-up).
                async for _ in _until_final(queue):
                    pass
        finally:
            task.subscribers.remove(queue)
        return task

    def bare_reply(self, params: Any) -> dict[str, Any] | None:
        """The bare Message a new plain message gets when the agent answers so
        (``plain_reply`` "message"), or None: the message starts or continues a task."""
        message = check_message(params)
        if self.config.plain_reply != "message" or not is_plain(message):
            return None
        if message.get("taskId") is not None:
            return None  # a follow-up continues its task (or is TaskNotFound) as before
        return message_reply(message)

    async def answer(self, params: Any, on_start: Starting = None) -> dict[str, Any]:
        """SendMessage's answer in A2A 1.0's shape: ``{"message": ...}`` or ``{"task": ...}``."""
        reply = self.bare_reply(params)
        if reply is not None:
            return {"message": reply}
        return {"task": (await self.send(params, on_start)).snapshot()}

    async def stream(self, params: Any, on_start: Starting = None) -> AsyncIterator[dict[str, Any]]:
        """SendStreamingMessage: the task, then each event until a final state (a message
        naming a waiting task's taskId continues it; ``on_start`` as for ``send``)."""
        message = check_message(params)
        reply = self.bare_reply(params)
        if reply is not None:
            yield {"message": reply}
            return
        task, follows = self._task_for(message, on_start)
        queue = task.subscribe()
        try:
            if follows:
                self._resume(task, message)
            yield {"task": task.snapshot()}
            if not follows:
                self._run(task, message)
            async for event in _until_final(queue):
                yield event
                if self.config.drop_stream:
                    return  # the connection closes before the task ends: resubscribe
        finally:
            task.subscribers.remove(queue)

    def subscribable(self, params: Any) -> TaskRecord:
        """The task SubscribeToTask would follow: an unknown id is TaskNotFound, a task in a
        terminal state UnsupportedOperation (A2A 1.0 section 3.1.6), never an empty stream
        or a snapshot. The bindings call it before the stream starts."""
        task = self.get(params)
        if task.state in TERMINAL_STATES:
            raise unsupported(f"task {task.id} is in a terminal state ({task.state})")
        return task

    async def subscribe(self, params: Any) -> AsyncIterator[dict[str, Any]]:
        """SubscribeToTask: the task now, then each event until a final state."""
        task = self.subscribable(params)
        queue = task.subscribe()
        try:
            finished = task.finished  # as of the snapshot: later events are in the queue
            yield {"task": task.snapshot()}
            if finished:
                return
            async for event in _until_final(queue):
                yield event
        finally:
            task.subscribers.remove(queue)

    def get(self, params: Any) -> TaskRecord:
        """The task ``params.id`` names (GetTask, CancelTask, SubscribeToTask)."""
        task_id = params.get("id") if isinstance(params, dict) else None
        if not isinstance(task_id, str):
            raise invalid_params("params.id must be a string")
        task = self.store.get(task_id)
        if task is None:
            raise task_not_found(task_id)
        return task

    def get_task(self, params: Any) -> dict[str, Any]:
        """GetTask: the task with at most ``historyLength`` recent messages (a negative
        or non-integer length is InvalidParams on every binding)."""
        task = self.get(params)
        return task.snapshot(history_length(params))

    def list_tasks(self, params: Any) -> dict[str, Any]:
        """ListTasks: one page of the tasks that match every filter, the most recently
        updated first; the page token is an offset into the matching tasks."""
        return list_page(list_query(params), self.store.newest_first())

    def cancel(self, params: Any) -> TaskRecord:
        """CancelTask: a running or interrupted task (A2A allows cancelling one that waits
        for input) of a cancellable skill."""
        task = self.get(params)
        if task.state in TERMINAL_STATES or not task.cancellable:
            raise OperationError(
                -32002,
                400,
                "FAILED_PRECONDITION",
                "TASK_NOT_CANCELABLE",
                f"Task cannot be canceled (state {task.state})",
            )
        if task.runner is not None:
            task.runner.cancel()
        task.set_status(TaskState.CANCELED, task.agent_message([{"text": "canceled on request"}]))
        return task


async def _until_final(queue: asyncio.Queue[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """A task's queued events, up to and including its final status update."""
    while True:
        event = await queue.get()
        yield event
        update = event.get("statusUpdate")
        if update is not None and is_final(update["status"]["state"]):
            return
