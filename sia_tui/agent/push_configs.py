"""The push notification config methods (A2A 1.0 sections 3.1.7-3.1.10), one place for
every binding: Create, Get, List and Delete TaskPushNotificationConfig.

With push off (the card says ``pushNotifications: false``) each answers
PushNotificationNotSupportedError (-32003, HTTP 400 / gRPC FAILED_PRECONDITION), never
"method not found" (section 3.3.4). With push on, a config is kept in memory (at most
``MAX_PER_TASK`` per task) until it is deleted, and later events of its task are POSTed
to its URL as an inline ``taskPushNotificationConfig`` would be.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from sia_tui.agent.errors import OperationError, invalid_params, push_not_supported, task_not_found
from sia_tui.agent.push import checked_webhook
from sia_tui.agent.service import AgentService
from sia_tui.agent.tasks import TaskRecord
from sia_tui.core.task_state import TERMINAL_STATES

MAX_PER_TASK = 10
#: Called with a task and a config that was just created: push its later events.
Follow = Callable[[TaskRecord, dict[str, Any]], None]


def _member(params: dict[str, Any], camel: str, snake: str) -> Any:
    """A member under its ProtoJSON name or its proto name (parsers accept both)."""
    return params[camel] if camel in params else params.get(snake)


def _string(params: Any, camel: str, snake: str) -> str:
    value = _member(params, camel, snake) if isinstance(params, dict) else None
    if not isinstance(value, str) or not value or len(value) > 200:
        raise invalid_params(f"params.{camel} must be a non-empty string")
    return value


class PushConfigs:
    """Push notification configs per task, and the four methods that manage them."""

    def __init__(self, service: AgentService, mode: str, follow: Follow) -> None:
        self._service, self._mode, self._follow = service, mode, follow
        self._configs: dict[str, dict[str, dict[str, Any]]] = {}

    def _task(self, params: Any) -> TaskRecord:
        if self._mode == "off":
            raise push_not_supported()
        task_id = _string(params, "taskId", "task_id")
        task = self._service.store.get(task_id)
        if task is None:
            raise task_not_found(task_id)
        return task

    def _forget_gone_tasks(self) -> None:
        """Configs of tasks the store forgot go with them (memory stays bounded)."""
        for task_id in [t for t in self._configs if self._service.store.get(t) is None]:
            del self._configs[task_id]

    def registered(self, task_id: str, config_id: str) -> bool:
        """True while the config is not deleted (a delivery checks before each POST)."""
        return config_id in self._configs.get(task_id, {})

    def create(self, params: Any) -> dict[str, Any]:
        """CreateTaskPushNotificationConfig: params are a TaskPushNotificationConfig."""
        task = self._task(params)
        webhook = checked_webhook(params, self._mode, "params")
        config_id = _member(params, "id", "id") or str(uuid.uuid4())
        if not isinstance(config_id, str) or len(config_id) > 200:
            raise invalid_params("params.id must be a string")
        self._forget_gone_tasks()
        configs = self._configs.setdefault(task.id, {})
        if config_id not in configs and len(configs) >= MAX_PER_TASK:
            raise invalid_params(f"a task keeps at most {MAX_PER_TASK} push notification configs")
        config: dict[str, Any] = {"id": config_id, "taskId": task.id, "url": webhook.url}
        if webhook.token is not None:
            config["token"] = webhook.token
        authentication = params.get("authentication")
        if isinstance(authentication, dict) and isinstance(authentication.get("scheme"), str):
            config["authentication"] = {
                k: v for k, v in authentication.items() if k in ("scheme", "credentials")
            }
        configs[config_id] = config
        if task.state not in TERMINAL_STATES:  # an interrupted task may go on: follow it
            self._follow(task, config)
        return config

    def adopt(self, task: TaskRecord, inline: dict[str, Any]) -> None:
        """A new task's inline ``taskPushNotificationConfig`` (already checked) becomes
        its first config: listed, deletable, and followed from now on."""
        self.create({**inline, "taskId": task.id})

    def get(self, params: Any) -> dict[str, Any]:
        """GetTaskPushNotificationConfig: a config that does not exist is TaskNotFound
        (A2A 1.0 section 3.1.8)."""
        task = self._task(params)
        config_id = _string(params, "id", "id")
        config = self._configs.get(task.id, {}).get(config_id)
        if config is None:
            raise OperationError(
                -32001,
                404,
                "NOT_FOUND",
                "TASK_NOT_FOUND",
                f"no push notification config {config_id[:100]!r} for task {task.id}",
            )
        return config

    def list(self, params: Any) -> dict[str, Any]:
        """ListTaskPushNotificationConfigs: every config of the task, one page."""
        task = self._task(params)
        return {"configs": list(self._configs.get(task.id, {}).values()), "nextPageToken": ""}

    def delete(self, params: Any) -> dict[str, Any]:
        """DeleteTaskPushNotificationConfig: idempotent, deleting twice is no error."""
        task = self._task(params)
        config_id = _string(params, "id", "id")
        self._configs.get(task.id, {}).pop(config_id, None)
        return {}
