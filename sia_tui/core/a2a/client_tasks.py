"""``TaskCalls``: the calls on tasks that exist (GetTask, polling, ListTasks, CancelTask)
and GetExtendedAgentCard, each one recorded request and answer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.client_base import ClientBase
from sia_tui.core.a2a.extended_card import PURPOSE as EXTENDED_PURPOSE
from sia_tui.core.a2a.views import AgentCard, Interface

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import Task, TaskPage


class TaskCalls(ClientBase):
    """The unary A2A calls other than SendMessage."""

    async def extended_card(self, iface: Interface) -> AgentCard:
        """GetExtendedAgentCard (JSON-RPC or HTTP+JSON; gRPC refuses it), sent with the
        user's credentials."""
        payload = await self.binding(iface).extended_card(iface, EXTENDED_PURPOSE)
        return parse_card(payload, source_url=iface.url)

    async def get_task(self, iface: Interface, task_id: str, *, purpose: str = "get task") -> Task:
        """GetTask."""
        return await self.binding(iface).task_call("get", iface, task_id, purpose)

    async def list_tasks(
        self,
        iface: Interface,
        *,
        page_size: int = 50,
        page_token: str | None = None,
        purpose: str = "list tasks",
    ) -> TaskPage:
        """ListTasks (A2A 1.0): one page of the agent's tasks; 0.3 has none (refused here)."""
        return await self.binding(iface).list_tasks(iface, page_size, page_token, purpose)

    async def cancel(self, iface: Interface, task_id: str, *, purpose: str = "cancel") -> Task:
        """CancelTask."""
        return await self.binding(iface).task_call("cancel", iface, task_id, purpose)

    async def poll(
        self, iface: Interface, task_id: str, *, until: Callable[[Task], bool] | None = None
    ) -> Task:
        """GetTask until ``until(task)`` (default: terminal/interrupted), at most ``poll_max``
        calls; the last Task read."""
        done = until or (lambda task: task.terminal)
        interval = min(max(self.options.poll_interval, 0.0), 30.0)
        task = await self.get_task(iface, task_id, purpose="poll")
        for _ in range(max(self.options.poll_max, 1) - 1):
            if done(task):
                break
            await asyncio.sleep(interval)
            task = await self.get_task(iface, task_id, purpose="poll")
        return task
