"""A plain A2A message a run sent instead of steps 7-11 (``sia-tui send``), as recorded.

The eleven steps grade a schema-governed skill; below the draft a user may only want to
know whether an agent answers, and with what shape. ``PlainMessage`` is that message and
its answer, kept on the run (``RunState.plain``, an optional session member) so that a
session, its replay, the bug report and HAR hold it like any invocation. It judges
nothing: the answer is data; the run's outcome stays incomplete (steps 7-11 did not run).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sia_tui.core.a2a.task_views import Message
from sia_tui.core.run.turns import PartKind


@dataclass
class PlainMessage:
    """One user message with one part, how it was sent, and what came back."""

    kind: PartKind
    #: The text part, or the JSON text of the data part.
    text: str
    #: ``sync`` (SendMessage), ``stream`` (SendStreamingMessage) or ``poll`` (SendMessage
    #: returning at once, then GetTask).
    mode: str
    #: The skill the user had in mind (an A2A message names none; kept for the record).
    skill_id: str | None = None
    #: The task the message continues (``--task``), or None for a new one.
    task_id: str | None = None
    #: The user's yes for a skill whose document asks for it (the execute gate).
    consent: bool = False
    #: Send a mode the card's capabilities do not declare (an agent that under-declares).
    ignore_capabilities: bool = False
    #: True once the message went out.
    sent: bool = False
    #: Why it was not sent (consent, a capability the card lacks); "" when it was.
    held: str = ""
    #: Sequence numbers of this message's exchanges (in ``Run.exchanges``).
    exchanges: list[int] = field(default_factory=list)
    #: A bare Message answer (the Task answer is the run's ``task``).
    message: Message | None = None
    #: How many stream events arrived (stream mode).
    events: int = 0
    #: Why nothing usable came back: a transport failure or the agent's A2A error.
    error: str | None = None
    #: The named error underneath (``SiaError.kind``: ``a2a_error``, ``timeout``...).
    error_kind: str | None = None
