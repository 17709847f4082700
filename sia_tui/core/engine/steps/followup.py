"""Step 9 beyond one stream: the reply to an interrupted task, and resubscribing to a
stream that ended early (A2A 1.0 sections 3.4.3 and 3.1.6)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, NoReturn

from sia_tui.core.a2a.client import FollowUpOf
from sia_tui.core.a2a.http.wire import unsupported_operation
from sia_tui.core.a2a.task_views import Message, Task
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.outcome import StepFailed, StepWaits
from sia_tui.core.engine.steps.discovery import settle
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.limits import MAX_TURNS
from sia_tui.core.run.evidence import Blame, Party
from sia_tui.core.task_state import TERMINAL_STATES

if TYPE_CHECKING:  # the turns load with the first question a task asks
    from sia_tui.core.run.turns import Turn


def ask_user(ctx: EngineContext, task: Task) -> NoReturn:
    """The task stopped for input or authorization: record the question and wait."""
    from sia_tui.core.run.turns import new_turn

    turn = new_turn(task)
    ctx.run.turns.append(turn)
    message = f"the task waits for {turn.needs} ({turn.state}); the agent asks: {turn.question}"
    if len(ctx.run.turns) > MAX_TURNS:
        message += f" (more than {MAX_TURNS} questions: not answered by sia-tui)"
    raise StepWaits(message)


async def send_reply(ctx: EngineContext, turn: Turn) -> None:
    """Send the user's reply on the task's id and context, in the run's mode.

    Sync mode blocks to the next final or interrupted state; poll mode asks the agent to
    answer at once (the caller polls); stream mode opens a stream the caller reads.
    """
    run = ctx.run
    task, iface = run.task, run.interface
    assert task is not None and iface is not None
    from sia_tui.core.run.turns import PartKind, now

    follows = FollowUpOf(task.id, task.context_id)
    text = turn.reply if turn.reply_kind is PartKind.TEXT else None
    data = turn.reply if turn.reply_kind is PartKind.DATA else None
    turn.sent_at = now()
    if run.mode == InvocationMode.STREAM:
        if ctx.assembly is None:
            ctx.assembly = TaskAssembly()
            ctx.assembly.adopt(task)
        ctx.stream = aiter(
            ctx.client.stream(iface, data, text=text, follows=follows, purpose="reply")
        )
        return
    answer = await ctx.client.send(
        iface,
        data,
        text=text,
        follows=follows,
        purpose="reply",
        return_immediately=run.mode == InvocationMode.POLL,
    )
    if isinstance(answer, Message) or answer.id != task.id:
        got = "a Message" if isinstance(answer, Message) else f"task {answer.id}"
        message = f"the agent answered the reply to task {task.id} with {got}, not that task"
        raise StepFailed(
            message,
            hint="A follow-up with the task's taskId continues that task (A2A 1.0 section 3.4.3).",
            blame=Blame(party=Party.AGENT, statement=message),
        )
    run.task = answer


async def resubscribe(ctx: EngineContext, task: Task, limit: float) -> tuple[Task, str]:
    """A stream that closed before a final state: SubscribeToTask, else poll.

    Returns the task as it ended and the evidence note that says how it was followed.
    """
    assert ctx.run.interface is not None and ctx.assembly is not None
    ended = "the stream ended before a final state"
    try:
        ctx.stream = aiter(ctx.client.subscribe(ctx.run.interface, task.id, purpose="resubscribe"))
        async with asyncio.timeout(limit):
            first = await ctx.next_event()
            while ctx.stream is not None and first is not None:
                event = await ctx.next_event()
                if event is None or event.final:
                    break
    except A2AProtocolError as exc:
        # The agent refuses (UnsupportedOperation, an unknown method): poll instead.
        await ctx.close_stream()
        polled = await settle(ctx, ctx.assembly.task(), "invoke")
        if unsupported_operation(exc) and polled.state in TERMINAL_STATES:
            # A2A answers SubscribeToTask on a finished task so: not a refusal to follow.
            return polled, (
                f"{ended}; the task had ended {polled.state} before sia-tui resubscribed "
                "(the agent answered UnsupportedOperation, as A2A asks); polled its final state"
            )
        return polled, f"{ended}; the agent refused to resubscribe ({exc}); polled"
    await ctx.close_stream()
    note = f"{ended}; resubscribed (SubscribeToTask)"
    if first is not None and first.kind != "task":
        note += f"; its first event was a {first.kind} event, not the Task snapshot"
    followed = ctx.assembly.task()
    if followed.terminal:
        return followed, note
    return await settle(ctx, followed, "invoke"), note + ", which ended early too; polled"
