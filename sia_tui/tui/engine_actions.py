"""The app's engine side: n / r / R / invoke / cancel, each refused while steps are running."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import work
from textual.worker import WorkerState

from sia_tui.tui.host import BUSY_NOTICE, ConsoleState
from sia_tui.tui.messages import EngineFailed
from sia_tui.tui.modes import mode_key
from sia_tui.tui.session_actions import SessionApp

if TYPE_CHECKING:
    from sia_tui.core.a2a import StreamEvent
    from sia_tui.core.engine import ConsoleRequest
    from sia_tui.core.run import Reply
    from sia_tui.tui.engine import Engine

#: The worker group every network call of the engine runs in.
ENGINE_GROUP = "engine"
_ACTIVE = (WorkerState.PENDING, WorkerState.RUNNING)
#: What a "no" to the consent dialog leaves: nothing sent, the run incomplete.
NOT_SENT_NOTICE = (
    "Nothing was sent: the run stops before step 8 and is incomplete. To send it, press r "
    f"on Steps ({mode_key('steps')}) or ctrl+j on Invoke ({mode_key('invoke')}): you are "
    "asked again."
)
#: Where steps 7-11 wait, and what to do about it.
ARGUMENTS_NOTICE = (
    f"Steps 1-6 passed. Steps 7-11 need the skill's arguments: press {mode_key('invoke')} "
    "to edit them, then ctrl+j to invoke."
)

#: Where a task that asks a question (INPUT_REQUIRED, AUTH_REQUIRED) is answered.
REPLY_NOTICE = (
    f"The task waits for a reply: answer the agent's question on Results "
    f"({mode_key('results')}), then Enter."
)


class EngineActionsApp(SessionApp):
    """Engine actions of ``SiaApp``: its subclass sets the attributes declared here."""

    console_state: ConsoleState
    """The plain A2A console's state (its screen redraws from it)."""

    # -- busy guard --------------------------------------------------------------------------
    @property
    def engine_busy(self) -> bool:
        """True while an engine worker (a step, run all, invoke, restart) is running."""
        return any(w.group == ENGINE_GROUP and w.state in _ACTIVE for w in self.workers)

    def refuse_if_busy(self) -> bool:
        """Tell the user and return True when steps are running.

        The workers are exclusive: starting another one would cancel the running step
        half-way (a step left "running", the next one without its document).
        """
        if not self.engine_busy:
            return False
        self.notify(BUSY_NOTICE, title="Busy", severity="warning")
        return True

    async def _guarded(self, call: Any) -> None:
        try:
            await call
        except Exception as exc:  # noqa: BLE001 - an engine bug must be shown, not crash the UI
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
        self.request_redraw()
        self.maybe_autosave()

    def refuse_if_nothing_to_run(self) -> bool:
        """Tell the user why ``n`` / ``r`` have nothing to do, and return True, when the run
        is over (complete, failed) or waits for arguments."""
        run = self.engine.run if self.engine is not None else None
        if run is None or not run.finished:
            return False
        if run.waiting_for_arguments:
            self.notify(ARGUMENTS_NOTICE, title="Waiting for arguments")
        elif run.waiting_for_reply:
            self.notify(REPLY_NOTICE, title="The task asks a question")
        else:
            self.notify(
                f"The run is complete: {run.headline}. Press R to run it again.",
                title="Nothing more to run",
            )
        return True

    # -- actions (network work only in workers) ---------------------------------------------
    # -- consent (RULES SID5) ----------------------------------------------------------------
    def ask_consent(self, then: Callable[[], object]) -> bool:
        """When step 8 waits for the user's yes (``Run.waiting_for_consent``), ask; a yes is
        consent to that one send, then ``then`` runs. True when it asked.

        Every invocation asks: the engine takes the consent with the send, and a restart
        or new arguments start without one.
        """
        from sia_tui.tui.screens.confirm import ConfirmScreen, consent_question

        engine = self.engine
        run = engine.run if engine is not None else None
        need = run.consent_need if run is not None and run.waiting_for_consent else None
        if engine is None or run is None or need is None:
            return False
        skill = self.display_policy.literal(run.skill_id or "This skill", style="bold")
        question = consent_question(skill, need.reason, "Send this invocation?")

        def answered(yes: bool | None) -> None:
            if not yes:
                self.notify(NOT_SENT_NOTICE, title="Nothing sent", severity="warning")
                return
            # Only the run the user was asked about, and only while it still waits.
            asked = engine is self.engine and engine.run is run and run.waiting_for_consent
            if asked and not self.refuse_if_busy():
                engine.consent_to_send()
                then()

        # After what is already queued: ctrl+j's switch to Results must not bury the dialog.
        self.call_later(self.push_screen, ConfirmScreen(question), answered)
        return True

    def action_run_next(self) -> None:
        """Run the next step."""
        if self.refuse_if_read_only() or self.refuse_if_busy():
            return
        if self.ask_consent(self._run_next) or self.refuse_if_nothing_to_run():
            return
        self._run_next()

    @work(exclusive=True, group=ENGINE_GROUP)
    async def _run_next(self) -> None:
        self.show_latest_invocation()
        if self.engine is not None and self.engine.run.next_step is not None:
            await self._guarded(self.engine.step())

    def action_run_all(self) -> None:
        """Run every remaining step."""
        if self.refuse_if_read_only() or self.refuse_if_busy():
            return
        if self.ask_consent(self._run_all) or self.refuse_if_nothing_to_run():
            return
        self._run_all()

    @work(exclusive=True, group=ENGINE_GROUP)
    async def _run_all(self) -> None:
        self.show_latest_invocation()
        if self.engine is not None:
            await self._guarded(self.engine.run_all())
            self._explain_pause()

    def _explain_pause(self) -> None:
        """Once the run pauses: steps 7-11 wait for arguments (say where they come from),
        step 9 for a reply to the task's question (say where), or step 8 for the user's
        consent (ask)."""
        run = self.engine.run if self.engine is not None else None
        if run is not None and run.waiting_for_arguments:
            self.notify(ARGUMENTS_NOTICE, title="Waiting for arguments")
        elif run is not None and run.waiting_for_reply:
            self.notify(REPLY_NOTICE, title="The task asks a question")
        else:
            self.ask_consent(self._run_all)

    def action_restart(self) -> None:
        """Start again from step 1 (re-fetches the card); may interrupt running steps."""
        if self.refuse_if_read_only():
            return
        self._restart()

    @work(exclusive=True, group=ENGINE_GROUP)
    async def _restart(self) -> None:
        if self.engine is not None:
            self.show_latest_invocation()
            await self._guarded(self.engine.restart())
            await self._guarded(self.engine.step())

    def invoke(self, arguments: Any, send_anyway: bool) -> None:
        """Send the arguments: steps 7-11 (running 1-6 first when needed)."""
        if self.refuse_if_read_only() or self.engine is None or self.refuse_if_busy():
            return
        self._invoke(arguments, send_anyway)

    @work(exclusive=True, group=ENGINE_GROUP)
    async def _invoke(self, arguments: Any, send_anyway: bool) -> None:
        if self.engine is None:
            return
        self.show_latest_invocation()
        try:
            self.engine.set_arguments(arguments, send_anyway=send_anyway)
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        sent = self.shown_invocation
        if sent is not None:  # the earlier ones keep their own verdicts
            self.notify(
                f"Sending {sent.label}; [ shows the earlier ones with their verdicts.",
                title="Invocations",
            )
        self.withdraw_notices("Waiting for arguments")  # they were given
        # Show Results at once so streamed status updates are watched live.
        self.call_later(self.switch_mode, "results")
        await self._guarded(self.engine.run_all())
        self.withdraw_notices("Invocations")  # "Sending invocation 3 of 3" is done
        self.ask_consent(self._run_all)  # a skill that may act: step 8 waits for a yes

    def reply_to_task(self, reply: Reply) -> None:
        """Send ``reply`` to the task's open question (same taskId) and go on receiving."""
        if self.refuse_if_read_only() or self.engine is None or self.refuse_if_busy():
            return
        try:
            self.engine.reply(reply)
        except ValueError as exc:  # the task no longer waits, or asked too often
            self.notify(str(exc), title="Not sent", severity="warning")
            return
        self._run_all()

    def action_cancel_task(self) -> None:
        """Cancel the running task (when the document says it is cancellable)."""
        if self.refuse_if_read_only() or self.engine is None:
            return
        reason = self._why_not_cancellable()
        if reason:
            self.notify(reason, title="Nothing cancelled", severity="warning")
            return
        self._cancel_task()

    def _why_not_cancellable(self) -> str:
        """Why ``x`` would do nothing now (``Run.cancel_refusal``), or "" when it makes sense."""
        run = self.engine.run if self.engine is not None else None
        if run is None or run.task is None:
            return "No task to cancel: invoke the skill first (5, then ctrl+j)."
        return run.cancel_refusal

    @work(group="engine-cancel")
    async def _cancel_task(self) -> None:
        if self.engine is None:
            return
        try:
            task = await self.engine.cancel()
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        if task is None:
            self.notify(
                "Nothing was cancelled: the engine had no running task to cancel.",
                severity="warning",
            )
        else:
            self.notify(f"Cancel requested; the task is now {task.state}.")
        self.request_redraw()

    # -- the plain A2A console ---------------------------------------------------------------
    def open_console(self, skill_id: str | None = None) -> None:
        """Show the console, working on ``skill_id`` (a skill without a schema interface)."""
        if skill_id is not None:
            self.console_state.skill_id = skill_id
        self.switch_mode("console")
        self.request_redraw()

    def send_console(self, request: ConsoleRequest) -> None:
        """Send one plain A2A message (in a worker); the console screen shows the reply."""
        if self.refuse_if_read_only():
            return
        if self.engine is None or self.engine.run.interface is None:
            self.notify(
                "No agent card yet: connect (c) and let step 1 pass first.", severity="warning"
            )
            return
        self.console_state.sending, self.console_state.events, self.console_state.reply = (
            True,
            [],
            None,
        )
        self.request_redraw()
        self._send_console(self.engine, request)

    @work(exclusive=True, group="console")
    async def _send_console(self, engine: Engine, request: ConsoleRequest) -> None:
        def on_event(event: StreamEvent) -> None:
            self.console_state.events.append(event)
            self.request_redraw()

        try:
            self.console_state.reply = await engine.console(request, on_event)
        except Exception as exc:  # noqa: BLE001 - an engine bug is shown, never a crash
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
        finally:
            self.console_state.sending = False
            self.request_redraw()
