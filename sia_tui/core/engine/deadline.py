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
from sia_tui.core.engine.evidence import DelegationEvidence, ReceptionEvidence
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
    ``limits.CANCEL_GRACE_SECONDS``; what happened goes into the task step's evidence
    (``deadline_cancel``). Before step 8 no task of the skill runs: nothing to cancel.
    """
    await ctx.close_stream()
    evidence = result.evidence
    if not isinstance(evidence, DelegationEvidence | ReceptionEvidence):
        return
    run = ctx.run
    if run.task is None:
        evidence.deadline_cancel = "CancelTask not sent: the agent named no task in time"
        return
    if refusal := run.cancel_refusal:  # the read model's one answer to "can it be cancelled?"
        evidence.deadline_cancel = f"CancelTask not sent: {refusal}"
        return
    assert run.interface is not None  # cancel_refusal says so
    grace = limits.CANCEL_GRACE_SECONDS
    try:
        async with asyncio.timeout(grace):
            task = await ctx.client.cancel(run.interface, run.task.id, purpose="cancel (deadline)")
        evidence.deadline_cancel = f"CancelTask sent: the task is now {task.state}"
    except TimeoutError:
        evidence.deadline_cancel = f"CancelTask sent: no answer within {grace:g} s"
    except SiaError as exc:
        evidence.deadline_cancel = f"CancelTask sent: {exc}"
