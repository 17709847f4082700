"""``TaskCalls``: the calls on tasks that exist (GetTask, polling, ListTasks, CancelTask)
and GetExtendedAgentCard, each one recorded request and answer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.client_base import ClientBase
from sia_tui.core.a2a.extended_card import PURPOSE as EXTENDED_PURPOSE
from sia_tui.core.a2a.extended_card import extended_card_request
from sia_tui.core.a2a.http.codec import codec_for, read_task, read_task_page
from sia_tui.core.a2a.http.wire import unwrap_jsonrpc
from sia_tui.core.a2a.views import GRPC, AgentCard, Interface, Task, TaskPage
from sia_tui.core.errors import A2AProtocolError


class TaskCalls(ClientBase):
    """The unary A2A calls other than SendMessage."""

    async def extended_card(self, iface: Interface) -> AgentCard:
        """GetExtendedAgentCard (JSON-RPC or HTTP+JSON), sent with the user's credentials."""
        if iface.binding == GRPC:
            raise A2AProtocolError("the extended card is fetched over JSON-RPC or HTTP+JSON only")
        wire = extended_card_request(iface, self._next_id())
        payload = await self._wire_call(EXTENDED_PURPOSE, codec_for(iface.dialect), wire)
        return parse_card(
            unwrap_jsonrpc(payload) if wire.jsonrpc else payload, source_url=iface.url
        )

    async def get_task(self, iface: Interface, task_id: str, *, purpose: str = "get task") -> Task:
        """GetTask."""
        return await self._task_call("get", iface, task_id, purpose)

    async def list_tasks(
        self,
        iface: Interface,
        *,
        page_size: int = 50,
        page_token: str | None = None,
        purpose: str = "list tasks",
    ) -> TaskPage:
        """ListTasks (A2A 1.0): one page of the agent's tasks; 0.3 has none (refused here)."""
        if iface.binding == GRPC:
            answer = await self._grpc().list_tasks(iface, page_size, page_token, purpose)
            return read_task_page(answer, jsonrpc=False)
        codec = codec_for(iface.dialect)
        wire = codec.build_list(
            iface, rpc_id=self._next_id(), page_size=page_size, page_token=page_token
        )
        payload = await self._wire_call(purpose, codec, wire)
        return read_task_page(payload, jsonrpc=wire.jsonrpc)

    async def cancel(self, iface: Interface, task_id: str, *, purpose: str = "cancel") -> Task:
        """CancelTask."""
        return await self._task_call("cancel", iface, task_id, purpose)

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

    async def _task_call(
        self, operation: Literal["get", "cancel"], iface: Interface, task_id: str, purpose: str
    ) -> Task:
        """GetTask or CancelTask: the one task the agent answers with."""
        if iface.binding == GRPC:
            binding = self._grpc()
            call = binding.get_task if operation == "get" else binding.cancel
            return read_task(await call(iface, task_id, purpose), jsonrpc=False)
        codec = codec_for(iface.dialect)
        wire = codec.build(iface, operation, rpc_id=self._next_id(), task_id=task_id)
        payload = await self._wire_call(purpose, codec, wire)
        return read_task(payload, jsonrpc=wire.jsonrpc, proto03=wire.proto03)
