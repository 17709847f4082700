"""The plain A2A console: one user message (a text or a data part) to any skill of any agent.

For an agent without the schema-interface extension, or a skill without a schema interface,
the eleven steps do not apply; the console still lets a user talk to it: sync or stream,
the raw reply and the task's artifacts. It reports what came back and judges nothing: no
step, no verdict. Credentials follow the same origin rule as the procedure (RULES SR7), and
the extension is not activated (this is plain A2A).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from sia_tui.core.a2a.client import A2AClient, FollowUpOf
from sia_tui.core.a2a.forgiven import MAX_FORGIVEN, answered
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Artifact, Message, StreamEvent, Task
from sia_tui.core.a2a.views import AgentCard, Interface
from sia_tui.core.engine.assembly import TaskAssembly
from sia_tui.core.engine.capabilities import capability_refusal
from sia_tui.core.errors import SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.jsonkit.strictjson import loads
from sia_tui.core.redaction.issued import IssuedSecrets
from sia_tui.core.run.turns import PartKind as PartKind

#: The response modes the console's screen offers (``sia-tui send`` also polls).
CONSOLE_MODES = (InvocationMode.SYNC, InvocationMode.STREAM)


@dataclass(frozen=True)
class ConsoleRequest:
    """A message to send: its part and how to wait for the answer."""

    kind: PartKind
    text: str
    """The text part, or the JSON text of the data part."""
    mode: str = InvocationMode.SYNC
    """``sync`` (SendMessage), ``stream`` (SendStreamingMessage) or ``poll`` (SendMessage
    returning at once, then GetTask until the task is final or interrupted)."""
    skill_id: str | None = None
    """The skill the user had in mind (A2A messages do not name one; kept for the record)."""
    task_id: str | None = None
    """The task the message continues (same taskId, A2A 1.0 section 3.4.3), or None."""
    ignore_capabilities: bool = False
    """Send in a mode the card's capabilities do not declare (an agent that under-declares)."""

    def data(self) -> Any:
        """The data part's value (strict JSON; raises ``JsonInputError`` with a position)."""
        return loads(self.text, source="data part")


@dataclass
class ConsoleReply:
    """What one console message brought back, raw and read."""

    request: ConsoleRequest
    interface: Interface | None
    exchanges: list[Exchange] = field(default_factory=list)
    task: Task | None = None
    message: Message | None = None
    events: list[StreamEvent] = field(default_factory=list)
    error: str | None = None
    """Why nothing usable came back (transport, A2A error, a data part that is not JSON)."""
    error_kind: str | None = None
    """The named error underneath (``SiaError.kind``); None without an error."""
    held: str = ""
    """Why the message was not sent (a capability the card does not declare, or a skill that
    may act without the user's consent); "" if sent."""
    consent_reason: str = ""
    """When the execute gate held it: what the user would consent to, said in a clause
    ("the document declares execute authority"); a yes sends it. "" otherwise."""
    warnings: list[str] = field(default_factory=list)
    """What was forgiven in a 1.0 answer, located (``a2a/forgiven.py``)."""

    @property
    def artifacts(self) -> tuple[Artifact, ...]:
        """The task's artifacts (none for a bare Message)."""
        return self.task.artifacts if self.task is not None else ()

    @property
    def state(self) -> str | None:
        """The task's state, ``message`` for a bare Message, None when nothing came back."""
        if self.task is not None:
            return self.task.state
        return "message" if self.message is not None else None


async def send_console(
    request: ConsoleRequest,
    interface: Interface | None,
    card_location: str,
    options: ClientOptions,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    on_event: Callable[[StreamEvent], None] | None = None,
    card: AgentCard | None = None,
    issued: IssuedSecrets | None = None,
) -> ConsoleReply:
    """Send ``request`` to ``interface`` (from the card at ``card_location``); never raises
    for what the agent does: the reply says what happened."""
    reply = ConsoleReply(request, interface)
    if interface is None:
        reply.error = "no callable interface: step 1 (retrieve the card) has not passed"
        return reply
    held = None if request.ignore_capabilities else capability_refusal(card, request.mode)
    if held is not None:  # the console screen shows the error; `send` reads ``held``
        reply.held = reply.error = held
        return reply
    try:
        data = request.data() if request.kind is PartKind.DATA else None
    except SiaError as exc:
        reply.error = f"the data part is not JSON: {exc}"
        return reply
    text = request.text if request.kind is PartKind.TEXT else None
    follows = FollowUpOf(request.task_id) if request.task_id else None
    client = A2AClient(
        replace(options, extensions=False),
        transport=transport,
        on_exchange=reply.exchanges.append,
        issued=issued,
    )
    # RULES SR7: credentials to the card's origin; the card's schemes say which go where.
    client.bind_card_location(card_location, card)
    try:
        if request.mode == InvocationMode.STREAM:
            assembly = TaskAssembly()
            events = client.stream(interface, data, text=text, purpose="console", follows=follows)
            async for event in events:
                reply.events.append(event)
                if event.message is not None and event.kind == "message":
                    reply.message = event.message
                assembly.apply(event)
                if on_event is not None:
                    on_event(event)
            if assembly.task_id:
                reply.task = assembly.task()
        else:
            poll = request.mode == InvocationMode.POLL
            answer = await client.send(
                interface,
                data,
                text=text,
                purpose="console",
                follows=follows,
                return_immediately=poll,
            )
            if isinstance(answer, Task):
                reply.task = answer
                if poll and not answer.terminal:
                    reply.task = await client.poll(interface, answer.id)
            else:
                reply.message = answer
    except SiaError as exc:
        reply.error = f"{type(exc).__name__}: {exc}"
        reply.error_kind = exc.kind
    finally:
        await client.aclose()
    if interface.dialect == "1.0":
        reply.warnings = _forgiven(reply)
    return reply


def _forgiven(reply: ConsoleReply) -> list[str]:
    """Each thing a 1.0 answer was forgiven, located in the object it was found in."""
    found: dict[str, None] = {}  # ordered, each once (a stream repeats its task)
    answers: list[tuple[str, Any]] = [
        ("Task", reply.task.raw if reply.task is not None and not reply.events else None),
        ("Message", reply.message.raw if reply.message is not None else None),
    ]
    for event in reply.events:  # each object an event carries, as it was sent
        for what, item in (
            ("Task", event.task),
            ("Message", event.message),
            ("status message", event.status_message),
        ):
            answers.append((f"{what} streamed", item.raw if item is not None else None))
        if event.artifact is not None:
            answers.append(("artifact streamed", {"artifacts": [event.artifact.raw]}))
    for what, raw in answers:
        for warning in answered(what, raw) if raw is not None else ():
            found.setdefault(warning)
    return list(found)[:MAX_FORGIVEN]
