"""``StreamingCalls``: SendStreamingMessage and SubscribeToTask, read as events until a
final one (an HTTP event stream or a gRPC server stream, as the binding carries it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.client_base import ClientBase, FollowUpOf, user_message
from sia_tui.core.a2a.http.codec import codec_for
from sia_tui.core.a2a.views import Interface

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import StreamEvent


class StreamingCalls(ClientBase):
    """The two streaming A2A calls; each stream's exchange is recorded as it closes."""

    async def stream(
        self,
        iface: Interface,
        data: Any = None,
        *,
        purpose: str,
        text: str | None = None,
        follows: FollowUpOf | None = None,
        push: dict[str, Any] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """SendStreamingMessage (one data part, or one text part given ``text``; continuing
        the task ``follows`` names): events as they arrive, until a final one or the end;
        ``push`` as for ``send``."""
        message = user_message(codec_for(iface.dialect), data, text, follows)
        events = self.binding(iface).stream(iface, message, purpose, push)
        async with aclosing(events) as reading:
            async for event in reading:
                yield event

    async def subscribe(
        self, iface: Interface, task_id: str, *, purpose: str = "subscribe"
    ) -> AsyncIterator[StreamEvent]:
        """SubscribeToTask (0.3: ``tasks/resubscribe``): the task, then its events until a
        final one."""
        events = self.binding(iface).subscribe(iface, task_id, purpose)
        # Closed here, not when collected: the exchange is recorded as the call ends.
        async with aclosing(events) as reading:
            async for event in reading:
                yield event
