"""The Procedure: runs the eleven steps one at a time or to the end (RULES CP0-CP13).

Built in layers: ``step_runner.py`` runs the steps, ``invocation_control.py`` holds what
the user decides about an invocation; here, which run (restart, another skill) and the
doors that add nothing to it (the console, ListTasks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sia_tui.core.engine.invocation_control import InvocationControl
from sia_tui.core.run.read_model import Run, Step, StepStatus

if TYPE_CHECKING:
    from sia_tui.core.a2a.task_views import StreamEvent
    from sia_tui.core.engine.console import ConsoleReply, ConsoleRequest
    from sia_tui.core.engine.task_list import TaskListing


class Procedure(InvocationControl):
    """Runs the client procedure for one target; the CLI and the TUI both drive it."""

    async def restart(self) -> None:
        """Start over from step 1 with a fresh run (the card is fetched again).

        The new run keeps the target and nothing of the last invocation: steps 7-11 wait
        for arguments, so what is sent next is what the caller gives then, never the
        arguments (or the negative test) of a run the user has since moved on from.
        """
        await self._ctx.close_stream()
        await self._ctx.close_push()
        await self._ctx.client.aclose()
        self.run = Run(target=self.run.target, credentials=self.run.credentials, issued=self.issued)
        self._ctx = self._new_context(self.run)
        self._deadline.reset()
        self._notify(None)

    def select_skill(self, skill_id: str) -> None:
        """Work on another advertised skill: a new run that keeps the card (step 1), so the
        invocations made of the old skill stay with the old run."""
        old = self.run
        run = Run(
            target=replace(old.target, skill_id=skill_id),
            warnings=list(old.warnings),
            credentials=old.credentials,
            issued=self.issued,
            trace_id=old.trace_id,  # the same client: its exchanges carry the same trace
        )
        card = old.step(Step.CARD)
        if card.status is StepStatus.PASSED:
            run.steps[0] = card
            run.exchanges = [ex for ex in old.exchanges if ex.seq in card.exchanges]
            run.card, run.card_url, run.interface = old.card, old.card_url, old.interface
        self.run = self._ctx.run = run
        self._deadline.reset()
        self._notify(None)

    async def console(
        self,
        request: ConsoleRequest,
        on_event: Callable[[StreamEvent], None] | None = None,
        *,
        consent: bool = False,
    ) -> ConsoleReply:
        """Send one plain A2A message to the run's interface (the console; nothing is added
        to the run). Needs step 1: the card names the interface. A skill whose document
        says it may act is sent the message only with ``consent`` (the execute gate; the
        steps up to 6 run to read that document)."""
        from sia_tui.core.engine.console import ConsoleReply, send_console
        from sia_tui.core.engine.execute_gate import execute_hold

        hold = await execute_hold(self, request.skill_id, consent)
        if hold is not None:
            return ConsoleReply(
                request,
                self.run.interface,
                held=hold.why,
                error=hold.why,
                consent_reason=hold.reason,
            )
        return await send_console(
            request,
            self.run.interface,
            self.run.target.location,
            self.options,
            transport=self._transport,
            on_event=on_event,
            card=self.run.card,
            issued=self.issued,
        )

    async def list_tasks(self, page_token: str | None = None) -> TaskListing:
        """One page of the agent's tasks (ListTasks); adds nothing to the run. Needs step
        1: the card names the interface."""
        from sia_tui.core.engine.task_list import list_tasks

        return await list_tasks(
            self.run.interface,
            self.run.target.location,
            self.options,
            transport=self._transport,
            page_token=page_token,
        )
