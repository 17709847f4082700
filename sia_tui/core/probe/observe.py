"""Sending one probe and reading what the agent answered, through the core A2A client."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.task_views import Message, Task
from sia_tui.core.a2a.views import Interface
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.engine.deadline import cancel_within_grace
from sia_tui.core.errors import A2AProtocolError, SiaError
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.needs import Need, word
from sia_tui.core.probe.results import Answer, Observation
from sia_tui.core.run.agent_answer import observation_of
from sia_tui.core.run.answers import NOT_CANCELLABLE
from sia_tui.core.task_state import FINISHED_STATES


def _message_text(message: Message) -> str:
    return " ".join(str(p.value) for p in message.parts if p.kind == "text")[:300]


class _Watched:
    """The newest task the agent named while a probe was watched (None before any)."""

    def __init__(self) -> None:
        self.task: Task | None = None
        self.assembly: TaskAssembly | None = None

    def latest(self) -> Task | None:
        """The task as last seen; a stream's is assembled only when asked (floods stay cheap)."""
        if self.assembly is not None and self.assembly.task_id:
            return self.assembly.task()
        return self.task


async def _stream(
    client: A2AClient, iface: Interface, data: dict[str, Any], purpose: str, seen: _Watched
) -> Task | Message:
    assembly = seen.assembly = TaskAssembly()
    async for event in client.stream(iface, data, purpose=purpose):
        if event.kind == "message" and event.message is not None and not assembly.task_id:
            return event.message
        assembly.apply(event)
        if event.final:
            break
    return assembly.task()


@dataclass(frozen=True)
class _Sending:
    """One probe request on its way: where, what, how, and its exchanges' purpose."""

    client: A2AClient
    iface: Interface
    data: dict[str, Any]
    mode: str
    purpose: str


async def _answer(sending: _Sending, seen: _Watched) -> Task | Message:
    """The agent's answer: a Message, or the task polled until it is final (or the bounds)."""
    client, iface, data, purpose = sending.client, sending.iface, sending.data, sending.purpose
    reply: Task | Message
    if sending.mode == InvocationMode.STREAM:
        reply = await _stream(client, iface, data, purpose, seen)
    else:
        poll = sending.mode == InvocationMode.POLL
        reply = await client.send(iface, data, purpose=purpose, return_immediately=poll)
    if isinstance(reply, Message):
        return reply
    seen.assembly, seen.task = None, reply
    if reply.terminal or not reply.id:
        return reply

    def finished(task: Task) -> bool:
        seen.task = task
        return task.terminal

    return await client.poll(iface, reply.id, until=finished)


async def observe(
    client: A2AClient,
    iface: Interface,
    data: dict[str, Any],
    *,
    mode: str,
    purpose: str,
    last_status: Callable[[], int | None],
    cancellable: bool = False,
) -> Observation:
    """Send ``data`` in ``mode`` and read the answer; never raises for what the agent does.

    A task that is not final yet is polled (GetTask) until it is, within the client's
    bounds and its overall deadline (``--deadline``). A task still SUBMITTED or WORKING when
    the watch ends is one the agent is acting on: it is cancelled when the document declares
    the skill ``cancellable`` (``cancellable``), and the observation says what happened.
    ``last_status()`` gives the HTTP status of the newest exchange.
    """
    seen = _Watched()
    observed = await _watch(_Sending(client, iface, data, mode, purpose), seen)
    observed.http_status = last_status()
    task = seen.latest()
    if task is not None and task.id and task.state not in FINISHED_STATES:
        if cancellable:
            observed.cancel = await cancel_within_grace(
                client, iface, task.id, f"{purpose} (cancel)"
            )
        else:
            observed.cancel = f"CancelTask not sent: {NOT_CANCELLABLE}"
    return observed


async def _watch(sending: _Sending, seen: _Watched) -> Observation:
    deadline = sending.client.options.deadline
    try:
        async with asyncio.timeout(deadline):
            reply = await _answer(sending, seen)
    except TimeoutError:
        passed = f"the deadline of {deadline:g} s passed ({word(Need.DEADLINE)})"
        last = seen.latest()
        if last is None:
            return Observation(Answer.TRANSPORT_ERROR, error=f"no answer: {passed}")
        observed = observation_of(last)
        observed.notes.append(f"{passed} while the task was {last.state}")
        return observed
    except A2AProtocolError as exc:
        # An error object with a code is a refusal at the A2A level; without one, the
        # answer was simply not usable A2A.
        answer = Answer.A2A_ERROR if exc.code is not None else Answer.TRANSPORT_ERROR
        return Observation(answer, error=str(exc)[:500])
    except SiaError as exc:
        return Observation(Answer.TRANSPORT_ERROR, error=str(exc)[:500])
    if isinstance(reply, Message):
        return Observation(Answer.MESSAGE, message=_message_text(reply))
    return observation_of(reply)
