"""Sending one probe and reading what the agent answered, through the core A2A client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.model import Interface, Message, Task
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.engine.remote_errors import read_remote_error
from sia_tui.core.errors import A2AProtocolError, SiaError
from sia_tui.core.probe.model import Answer, Observation

_FINISHED = ("TASK_STATE_REJECTED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED")


def observation_of(task: Task) -> Observation:
    """The state, and for a task that ended in error its draft error object (ERR1-ERR5)."""
    if task.state not in _FINISHED:
        return Observation(Answer.TASK, state=task.state)
    error = read_remote_error(task)
    findings = list(error.findings)
    return Observation(
        Answer.TASK,
        state=task.state,
        code=error.code,
        message=error.message,
        details=list(error.details),
        notes=[f"{f.rule}: {f.message}" for f in findings],
    )


def _message_text(message: Message) -> str:
    return " ".join(str(p.value) for p in message.parts if p.kind == "text")[:300]


async def _stream(client: A2AClient, iface: Interface, data: dict[str, Any], purpose: str) -> Any:
    assembly = TaskAssembly()
    async for event in client.stream(iface, data, purpose=purpose):
        if event.kind == "message" and event.message is not None and not assembly.task_id:
            return event.message
        assembly.apply(event)
        if event.final:
            break
    return assembly.task()


async def observe(
    client: A2AClient,
    iface: Interface,
    data: dict[str, Any],
    *,
    mode: str,
    purpose: str,
    last_status: Callable[[], int | None],
) -> Observation:
    """Send ``data`` in ``mode`` and read the answer; never raises for what the agent does.

    A task that is not final yet is polled (GetTask) until it is, within the client's
    bounds. ``last_status()`` gives the HTTP status of the newest exchange.
    """
    try:
        if mode == "stream":
            reply = await _stream(client, iface, data, purpose)
        else:
            reply = await client.send(
                iface, data, purpose=purpose, return_immediately=mode == "poll"
            )
        if isinstance(reply, Message):
            return Observation(
                Answer.MESSAGE, message=_message_text(reply), http_status=last_status()
            )
        task = reply
        if not task.terminal and task.id:
            task = await client.poll(iface, task.id)
    except A2AProtocolError as exc:
        # An error object with a code is a refusal at the A2A level; without one, the
        # answer was simply not usable A2A.
        answer = Answer.A2A_ERROR if exc.code is not None else Answer.TRANSPORT_ERROR
        return Observation(answer, error=str(exc)[:500], http_status=last_status())
    except SiaError as exc:
        return Observation(Answer.TRANSPORT_ERROR, error=str(exc)[:500], http_status=last_status())
    observed = observation_of(task)
    observed.http_status = last_status()
    return observed
