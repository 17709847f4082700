"""State shared by the step functions of one run."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.run.read_model import Run

if TYPE_CHECKING:  # the cache (--cache) and push (--push) load with the first run using them
    from sia_tui.core.a2a.task_views import StreamEvent
    from sia_tui.core.engine.cache import DocumentCache
    from sia_tui.core.engine.push import PushChannel

#: True while a task drives the open stream (its next event, its close): an exchange
#: recorded then is the stream's own, even if another task (a cancel) sends meanwhile.
READING_STREAM: ContextVar[bool] = ContextVar("reading_stream", default=False)
#: The step a request sent outside the running step belongs to (the user's cancel: step 9,
#: whose task it ends), so that it lands there even after that step ended (a replay of the
#: step then answers it from the recording).
SENT_FOR_STEP: ContextVar[int | None] = ContextVar("sent_for_step", default=None)


@dataclass
class EngineContext:
    """What a step may touch: the run, the client, the cache and the update hook."""

    run: Run
    client: A2AClient
    options: ClientOptions
    cache: DocumentCache | None
    #: Called for every streamed event so a UI can show progress live.
    emit: Callable[[StreamEvent], None]
    #: An open SSE stream, held between step 8 (sent) and step 9 (received).
    stream: AsyncIterator[StreamEvent] | None = None
    #: The task as streamed so far (stream mode only).
    assembly: TaskAssembly | None = None
    #: Called when the run changed outside a step's own updates (a push delivery arrived).
    changed: Callable[[], None] = lambda: None
    #: The invocation's push channel (``Target.push``), between steps 8 and 9.
    push: PushChannel | None = None

    async def close_push(self) -> None:
        """Stop the push receiver, if one listens (after step 9, on restart, on close)."""
        push, self.push = self.push, None
        if push is not None:
            await push.close()

    async def next_event(self) -> StreamEvent | None:
        """The open stream's next event, folded into the assembly and shown; None (and the
        stream forgotten) when it ended."""
        assert self.stream is not None and self.assembly is not None
        try:
            event = await self.next_from_stream()
        except StopAsyncIteration:
            self.stream = None
            return None
        self.assembly.apply(event)
        self.emit(event)
        return event

    async def close_stream(self) -> None:
        """Close an open SSE stream (after step 9, on cancel, on restart)."""
        stream, self.stream = self.stream, None
        closer = getattr(stream, "aclose", None)
        if closer is not None:
            token = READING_STREAM.set(True)
            try:
                await closer()
            finally:
                READING_STREAM.reset(token)

    async def next_from_stream(self) -> StreamEvent:
        """The open stream's next event (StopAsyncIteration when it ended)."""
        assert self.stream is not None
        token = READING_STREAM.set(True)
        try:
            return await anext(self.stream)
        finally:
            READING_STREAM.reset(token)

    @property
    def document(self) -> dict[str, Any]:
        """The Skill Interface Document (only valid after step 3)."""
        assert self.run.document is not None, "no document yet"
        return self.run.document
