"""``Binding``: the one interface every A2A protocol binding offers the client.

Like httpx's transports under its client: ``A2AClient`` writes each call once (the user
message, polling, closing a stream) and hands it to the binding of the interface, which
builds the request, sends it through the recorded exchange and reads the answer into the
dialect-independent views. The HTTP bindings (JSON-RPC and HTTP+JSON, both dialects) are
``http/binding.py``; gRPC is ``grpc/binding.py``. A fourth binding is one more class.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sia_tui.core.a2a.views import Interface

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import Message, StreamEvent, Task, TaskPage

#: The two calls on one existing task that answer with it.
TaskOperation = Literal["get", "cancel"]


class Binding(Protocol):
    """The A2A calls over one binding, each exchange recorded, each answer read."""

    async def send(
        self,
        iface: Interface,
        message: dict[str, Any],
        purpose: str,
        return_immediately: bool,
        push: dict[str, Any] | None,
    ) -> Task | Message:
        """SendMessage: the Task or Message the agent answers with."""
        ...

    async def task_call(
        self, operation: TaskOperation, iface: Interface, task_id: str, purpose: str
    ) -> Task:
        """GetTask or CancelTask: the one task the agent answers with."""
        ...

    async def list_tasks(
        self, iface: Interface, page_size: int, page_token: str | None, purpose: str
    ) -> TaskPage:
        """ListTasks: one page of the agent's tasks."""
        ...

    def stream(
        self,
        iface: Interface,
        message: dict[str, Any],
        purpose: str,
        push: dict[str, Any] | None,
    ) -> AsyncGenerator[StreamEvent, None]:
        """SendStreamingMessage: events as they arrive, until a final one or the end."""
        ...

    def subscribe(
        self, iface: Interface, task_id: str, purpose: str
    ) -> AsyncGenerator[StreamEvent, None]:
        """SubscribeToTask: the task, then its events until a final one."""
        ...

    async def extended_card(self, iface: Interface, purpose: str) -> Any:
        """GetExtendedAgentCard: the card's JSON, read by the client like the public one."""
        ...

    async def aclose(self) -> None:
        """Release what the binding holds open (connections, channels)."""
        ...
