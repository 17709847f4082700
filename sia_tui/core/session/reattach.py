"""Reattach to a task a recorded run left running: SubscribeToTask (0.3:
``tasks/resubscribe``), read-only.

Nothing is sent to the task but the subscription (and a GetTask when the agent says the
task has ended): no message, no cancel. The connection
uses the default limits (a session file raises none): the live run's credentials belong to
its own target, and a recorded session's were redacted, so none is sent (RULES SR7).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.http.wire import unsupported_operation
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import StreamEvent, Task
from sia_tui.core.a2a.views import Interface
from sia_tui.core.errors import A2AProtocolError, SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.session.format import LoadedSession
from sia_tui.core.session.replay import session_options


@dataclass
class Reattached:
    """What the subscription showed: each event, the task as it ended, or why not."""

    task_id: str | None
    events: list[StreamEvent] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)
    #: Why nothing (more) could be read: no task, a finished one, the agent's refusal.
    error: str | None = None

    @property
    def task(self) -> Task | None:
        """The last task snapshot the stream carried (its first event), if any."""
        snapshots = [e.task for e in self.events if e.task is not None]
        return snapshots[-1] if snapshots else None


def reattach_refusal(session: LoadedSession) -> str:
    """Why the recorded run has no task to reattach to ("" when it has one)."""
    run = session.run
    if run.task is None or run.interface is None:
        return "the recorded run sent no task"
    if run.task.terminal:
        return f"its task ended {run.task.state}: SubscribeToTask has nothing to follow"
    return ""


async def reattach_task(
    session: LoadedSession,
    *,
    on_event: Callable[[StreamEvent], None] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Reattached:
    """Follow the recorded run's task to its final state (or until the agent refuses)."""
    run = session.run
    result = Reattached(task_id=run.task.id if run.task is not None else None)
    refused = reattach_refusal(session)
    if refused:
        result.error = refused
        return result
    assert run.task is not None and run.interface is not None
    # Live: the defaults' limits, never the file's (a session file grants nothing).
    options = session_options(session.options, ClientOptions(), offline=False).options
    client = A2AClient(options, transport=transport, on_exchange=result.exchanges.append)
    client.trust_card_origin(run.card_url or run.target.location)
    try:
        async for event in client.subscribe(run.interface, run.task.id, purpose="reattach"):
            result.events.append(event)
            if on_event is not None:
                on_event(event)
    except A2AProtocolError as exc:
        result.error = await _refused(client, run.interface, run.task.id, exc)
    except SiaError as exc:  # the agent refused (an unknown task) or is gone
        result.error = str(exc)
    finally:
        await client.aclose()
    return result


async def _refused(client: A2AClient, iface: Interface, task_id: str, exc: A2AProtocolError) -> str:
    """Why the subscription was refused; a task that ended since the run was recorded is
    said so, with the state one GetTask reads (a read: nothing is sent to the task)."""
    if not unsupported_operation(exc):
        return str(exc)
    try:
        ended = (await client.get_task(iface, task_id, purpose="reattach")).state
    except SiaError:
        ended = "a terminal state"
    return (
        f"the task has ended ({ended}) since the run was recorded: SubscribeToTask follows "
        f"only a task that has not ended, and the agent answered UnsupportedOperation ({exc})"
    )
