"""``sia-tui send``: one plain A2A message to any agent, recorded on a run like any invocation.

Below the draft: no step grades the answer. The run fetches the card (step 1) and, when
the card's schema-interface extension binds the skill, learns its document (steps 2-6) so
that the one execute gate (``Run.answers.consent_need``, RULES SID5) decides whether the message
may go without the user's consent. The message itself is the console's (``console.py``,
the TUI's Console sends the same), and what came back is kept in ``Run.plain`` and
``Run.task``, its exchanges in ``Run.exchanges``: a session, replay, the bug report and
HAR read it as they read any run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sia_tui.core.a2a.task_views import StreamEvent
from sia_tui.core.engine.console import ConsoleReply, ConsoleRequest
from sia_tui.core.run.evidence import StepStatus
from sia_tui.core.run.plain import PlainMessage
from sia_tui.core.run.read_model import Run, Step

if TYPE_CHECKING:
    from sia_tui.core.engine.procedure import Procedure


def plain_request(plain: PlainMessage) -> ConsoleRequest:
    """The console request a recorded plain message was sent as (replay sends it again)."""
    return ConsoleRequest(
        plain.kind,
        plain.text,
        plain.mode,
        plain.skill_id,
        task_id=plain.task_id,
        ignore_capabilities=plain.ignore_capabilities,
    )


async def send_plain(
    procedure: Procedure,
    request: ConsoleRequest,
    *,
    consent: bool = False,
    on_event: Callable[[StreamEvent], None] | None = None,
) -> Run:
    """Fetch the card, learn the skill's document when the card binds it, then send
    ``request`` unless a gate holds it; the run records the message and its answer."""
    run = await procedure.run_until(Step.CARD)
    plain = PlainMessage(
        kind=request.kind,
        text=request.text,
        mode=request.mode,
        skill_id=request.skill_id,
        task_id=request.task_id,
        consent=consent,
        ignore_capabilities=request.ignore_capabilities,
    )
    run.plain = plain
    run.mode = request.mode
    if run.step(Step.CARD).status is not StepStatus.PASSED:
        plain.held = "the Agent Card could not be read (step 1), so nothing was sent"
        return run
    reply = await procedure.console(request, on_event, consent=consent)
    run = procedure.run
    run.plain, run.mode = plain, request.mode
    record_reply(run, plain, reply)
    return run


def record_reply(run: Run, plain: PlainMessage, reply: ConsoleReply) -> None:
    """Keep the console's answer on the run: its exchanges numbered after the run's own."""
    base = max((ex.seq for ex in run.exchanges), default=0)
    for offset, exchange in enumerate(reply.exchanges, start=1):
        numbered = replace(exchange, seq=base + offset)
        run.exchanges.append(numbered)
        plain.exchanges.append(numbered.seq)
    plain.held = reply.held
    run.warnings.extend(reply.warnings)
    plain.sent = not reply.held and bool(reply.exchanges)
    plain.message = reply.message
    plain.events = len(reply.events)
    if not reply.held:
        plain.error, plain.error_kind = reply.error, reply.error_kind
    run.task = reply.task
