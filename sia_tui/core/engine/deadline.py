"""The overall deadline of a run: one budget for every step, whatever the agent declares.

Timeouts bound each exchange; an agent can still keep a run alive forever with answers that
each arrive in time (a GetTask poll every few seconds, a stream of keep-alives or WORKING
updates, a declared ``max_duration_seconds`` of 10^9). The deadline bounds the time spent
inside steps since the run (or its invocation) started; pauses between steps, such as a
person editing arguments in the TUI, do not count.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sia_tui.core import limits
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.model import StepResult
from sia_tui.core.errors import DeadlineExceeded, SiaError


class RunDeadline:
    """``seconds`` of step time; :meth:`running` cuts a step off when they are spent."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.spent = 0.0

    def reset(self) -> None:
        """A new budget (the run, or its invocation steps, start again)."""
        self.spent = 0.0

    @property
    def remaining(self) -> float:
        return max(self.seconds - self.spent, 0.0)

    def exceeded(self) -> DeadlineExceeded:
        return DeadlineExceeded(
            f"the run's deadline of {self.seconds:g} s passed (--deadline); what was "
            "running was stopped and everything received so far is kept"
        )

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run one step within what is left; DeadlineExceeded when the budget runs out."""
        if self.remaining <= 0:
            raise self.exceeded()
        started = time.monotonic()
        try:
            async with asyncio.timeout(self.remaining) as scope:
                yield
        except TimeoutError as exc:
            if scope.expired():
                raise self.exceeded() from exc
            raise
        finally:
            self.spent += time.monotonic() - started


async def stop_after_deadline(ctx: EngineContext, result: StepResult) -> None:
    """Close an open stream and cancel the invoked task where the document allows it.

    The CancelTask exchange is recorded like any other and gets
    ``limits.CANCEL_GRACE_SECONDS``; the outcome goes into the step's evidence.
    """
    await ctx.close_stream()
    run = ctx.run
    task_id = (run.task.id if run.task else "") or (ctx.assembly.task_id if ctx.assembly else "")
    if result.step < 8 or run.interface is None:
        return
    if not task_id or (run.task is not None and run.task.terminal):
        result.evidence["cancel"] = "not sent: no running task is known"
        return
    if not (run.document or {}).get("interaction", {}).get("cancellable"):
        result.evidence["cancel"] = "not sent: the document does not declare the task cancellable"
        return
    grace = limits.CANCEL_GRACE_SECONDS
    try:
        async with asyncio.timeout(grace):
            task = await ctx.client.cancel(run.interface, task_id, purpose="cancel (deadline)")
        result.evidence["cancel"] = f"CancelTask sent: the task is now {task.state}"
    except TimeoutError:
        result.evidence["cancel"] = f"CancelTask sent: no answer within {grace:g} s"
    except SiaError as exc:
        result.evidence["cancel"] = f"CancelTask sent: {exc}"
