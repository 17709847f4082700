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
from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.views import Interface
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.errors import DeadlineExceeded, SiaError
from sia_tui.core.needs import Need, word
from sia_tui.core.run.read_model import StepResult
from sia_tui.core.task_state import FINISHED_STATES


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
            f"the run's deadline of {self.seconds:g} s passed ({word(Need.DEADLINE)}); what was "
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
    """Close an open stream and cancel the task the step was waiting for, where possible.

    The CancelTask exchange is recorded like any other and gets
    ``limits.CANCEL_GRACE_SECONDS``; what happened goes into the step's evidence
    (``deadline_cancel``). The invoked task (steps 8-9) is cancelled when the document
    declares the skill cancellable; a describe_skill task (step 3) still running is asked to
    stop too: no document is known yet to say otherwise, and A2A lets any task be asked
    (the agent answers TaskNotCancelable when it cannot).
    """
    from sia_tui.core.run.later_evidence import (
        DelegationEvidence,
        DescribeEvidence,
        ReceptionEvidence,
    )

    await ctx.close_stream()
    evidence = result.evidence
    run = ctx.run
    if isinstance(evidence, DescribeEvidence):
        running = evidence.task_id and evidence.state not in FINISHED_STATES
        if running and run.interface is not None:
            assert evidence.task_id is not None
            evidence.deadline_cancel = await cancel_within_grace(
                ctx.client, run.interface, evidence.task_id, "cancel (deadline)"
            )
        return
    if not isinstance(evidence, DelegationEvidence | ReceptionEvidence):
        return  # steps 1-2 and 4-7 run no task of the agent's
    if run.task is None:
        evidence.deadline_cancel = "CancelTask not sent: the agent named no task in time"
        return
    if (
        refusal := run.answers.cancel_refusal
    ):  # the read model's one answer to "can it be cancelled?"
        evidence.deadline_cancel = f"CancelTask not sent: {refusal}"
        return
    assert run.interface is not None  # cancel_refusal says so
    evidence.deadline_cancel = await cancel_within_grace(
        ctx.client, run.interface, run.task.id, "cancel (deadline)"
    )


async def cancel_within_grace(
    client: A2AClient, iface: Interface, task_id: str, purpose: str
) -> str:
    """Send CancelTask (recorded as ``purpose``) within ``limits.CANCEL_GRACE_SECONDS``;
    what happened, in one phrase ("CancelTask sent: the task is now TASK_STATE_CANCELED")."""
    grace = limits.CANCEL_GRACE_SECONDS
    try:
        async with asyncio.timeout(grace):
            task = await client.cancel(iface, task_id, purpose=purpose)
    except TimeoutError:
        return f"CancelTask sent: no answer within {grace:g} s"
    except SiaError as exc:
        return f"CancelTask sent: {exc}"
    return f"CancelTask sent: the task is now {task.state}"
