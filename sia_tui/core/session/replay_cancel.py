"""The user's cancel in a replay: sent again by the engine, where the recording has it.

A recorded run whose user cancelled its task (``Run.cancel_requested``) holds the
CancelTask exchange in step 9. Replay does not decide the verdict itself: the procedure
sends the cancel again (``InvocationControl.cancel``, as the TUI's ``x`` and the live run
did), and step 9 grades what follows as it did live. For that, the recorded answers that
came after the cancel was sent (the rest of a stream, the next poll) are held back until
the procedure has sent it (``RecordedCancel.turn``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from sia_tui.core.errors import SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.run.read_model import Run, Step
from sia_tui.core.session.served import sse_body

#: ``Exchange.purpose`` of the cancel a user asked for (the deadline's is another).
USER_CANCEL = "cancel"


class RecordedCancel:
    """Where the recorded user cancelled: answers recorded after it wait for the cancel."""

    def __init__(self, exchange: Exchange) -> None:
        self.exchange = exchange
        self._reached = asyncio.Event()
        self._released = asyncio.Event()
        self._sending = False

    @classmethod
    def of(cls, run: Run) -> RecordedCancel | None:
        """The user's cancel the run recorded in step 9; None when nobody asked for one."""
        if not run.cancel_requested:
            return None
        own = set(run.step(Step.RECEPTION).exchanges)
        sent = (ex for ex in run.exchanges if ex.seq in own and ex.purpose == USER_CANCEL)
        return next((cls(ex) for ex in sent), None)

    def came_after(self, at: float) -> bool:
        """True when something recorded at ``at`` (wall clock) came after the cancel was sent."""
        return at > self.exchange.started_at

    async def turn(self, next_answer: Exchange) -> None:
        """Wait, when ``next_answer`` was recorded after the cancel, until it has been sent
        again (the cancel's own answer is served while it is being sent)."""
        if self._released.is_set():
            return
        if next_answer is self.exchange and self._sending:
            return
        if next_answer is self.exchange or self.came_after(next_answer.started_at):
            await self.hold()

    async def hold(self) -> None:
        """The replay reached the point where the user cancelled: wait for the cancel."""
        self._reached.set()
        await self._released.wait()

    async def reached(self) -> None:
        """Returns when the replay waits for the user's cancel."""
        await self._reached.wait()

    @asynccontextmanager
    async def sending(self) -> AsyncIterator[None]:
        """The procedure sends the cancel now; afterwards every held answer goes on."""
        self._sending = True
        try:
            yield
        finally:
            self._sending = False
            self._released.set()

    def held_stream(self, ex: Exchange, ending: SiaError | None) -> HeldStream | None:
        """``ex``'s stream split where the user cancelled; None when no event it kept came
        after the cancel (or it did not keep each event's time: then it replays whole)."""
        times = ex.event_offsets_ms
        if not ex.events or ex.events_not_kept or len(times) != len(ex.events):
            return None
        split = next(
            (i for i, ms in enumerate(times) if self.came_after(ex.started_at + ms / 1000.0)),
            None,
        )
        if split is None:
            return None
        before, after = sse_body(ex.events[:split]), sse_body(ex.events[split:])
        return HeldStream(before, after, self, ending)


class HeldStream(httpx.AsyncByteStream):
    """A recorded stream: the events received before the cancel was sent, then (once the
    procedure sent it again) the rest, then the failure that ended it live, if any."""

    def __init__(
        self, before: bytes, after: bytes, cancel: RecordedCancel, ending: SiaError | None
    ) -> None:
        self._before, self._after, self._cancel, self._ending = before, after, cancel, ending

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._before:
            yield self._before
        await self._cancel.hold()
        if self._after:
            yield self._after
        if self._ending is not None:
            raise self._ending
