"""The app's engine side: n / r / R / invoke / cancel, each refused while steps are running;
choosing the skill; the plain A2A console."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any, Protocol

from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

from sia_tui.tui.app_calls import AppCalls, app_work
from sia_tui.tui.host import BUSY_NOTICE, ConsoleState
from sia_tui.tui.messages import EngineFailed
from sia_tui.tui.modes import mode_key

if TYPE_CHECKING:
    from sia_tui.core.a2a import StreamEvent
    from sia_tui.core.engine import ConsoleReply, ConsoleRequest
    from sia_tui.core.run import Reply
    from sia_tui.tui.display import DisplayPolicy
    from sia_tui.tui.engine_port import Engine
    from sia_tui.tui.invocation_view import InvocationView
    from sia_tui.tui.session_actions import SessionActions

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


class EngineHost(AppCalls, Protocol):
    """What ``EngineActions`` reads and asks of the app."""

    @property
    def engine(self) -> Engine | None: ...
    @property
    def console_state(self) -> ConsoleState: ...
    @property
    def display_policy(self) -> DisplayPolicy: ...
    def request_redraw(self) -> None: ...


class EngineActions:
    """n / r / R / invoke / reply / cancel and the console, a service of ``SiaApp``: each
    runs the engine in the app's workers (group ``ENGINE_GROUP``)."""

    def __init__(self, app: EngineHost, sessions: SessionActions, view: InvocationView) -> None:
        self.app = app
        self.sessions = sessions
        """Read-only refusals, and the autosave after each run."""
        self.view = view
        """Sending shows the latest invocation again."""
        self._next_queued = False
        """``n`` was pressed after a step's mark, before its worker ended: run it then."""

    # -- busy guard --------------------------------------------------------------------------
    @property
    def engine_busy(self) -> bool:
        """True while an engine worker (a step, run all, invoke, restart) is running."""
        return any(w.group == ENGINE_GROUP and w.state in _ACTIVE for w in self.app.workers)

    def refuse_if_busy(self) -> bool:
        """Tell the user and return True when steps are running.

        The workers are exclusive: starting another one would cancel the running step
        half-way (a step left "running", the next one without its document).
        """
        if not self.engine_busy:
            return False
        self.app.notify(BUSY_NOTICE, title="Busy", severity="warning")
        return True

    async def guarded(self, call: Any) -> None:
        try:
            await call
        except Exception as exc:  # noqa: BLE001 - an engine bug must be shown, not crash the UI
            self.app.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
        self.app.request_redraw()
        self.sessions.maybe_autosave()

    def refuse_if_nothing_to_run(self) -> bool:
        """Tell the user why ``n`` / ``r`` have nothing to do, and return True, when the run
        is over (complete, failed) or waits for arguments."""
        run = self.app.engine.run if self.app.engine is not None else None
        if run is None or not run.verdict.finished:
            return False
        if run.verdict.waiting_for_arguments:
            self.app.notify(ARGUMENTS_NOTICE, title="Waiting for arguments")
        elif run.verdict.waiting_for_reply:
            self.app.notify(REPLY_NOTICE, title="The task asks a question")
        else:
            self.app.notify(
                f"The run is complete: {run.verdict.headline}. Press R to run it again.",
                title="Nothing more to run",
            )
        return True

    # -- actions (network work only in workers) ---------------------------------------------
    # -- consent (RULES SID5) ----------------------------------------------------------------
    def ask_consent(self, then: Callable[[], object]) -> bool:
        """When step 8 waits for the user's yes (``Run.verdict.waiting_for_consent``), ask; a yes is
        consent to that one send, then ``then`` runs. True when it asked.

        Every invocation asks: the engine takes the consent with the send, and a restart
        or new arguments start without one.
        """
        from sia_tui.tui.screens.confirm import ConfirmScreen, consent_question

        engine = self.app.engine
        run = engine.run if engine is not None else None
        need = (
            run.answers.consent_need
            if run is not None and run.verdict.waiting_for_consent
            else None
        )
        if engine is None or run is None or need is None:
            return False
        skill = self.app.display_policy.literal(run.skill_id or "This skill", style="bold")
        question = consent_question(skill, need.reason, "Send this invocation?")

        def answered(yes: bool | None) -> None:
            if not yes:
                self.app.notify(NOT_SENT_NOTICE, title="Nothing sent", severity="warning")
                return
            # Only the run the user was asked about, and only while it still waits.
            asked = (
                engine is self.app.engine and engine.run is run and run.verdict.waiting_for_consent
            )
            if asked and not self.refuse_if_busy():
                engine.consent_to_send()
                then()

        # After what is already queued: ctrl+j's switch to Results must not bury the dialog.
        self.app.call_later(self.app.push_screen, ConfirmScreen(question), answered)
        return True

    def run_next(self) -> None:
        """Run the next step."""
        if self.sessions.refuse_if_read_only() or self._queue_next() or self.refuse_if_busy():
            return
        if self.ask_consent(self._run_next) or self.refuse_if_nothing_to_run():
            return
        self._run_next()

    def _queue_next(self) -> bool:
        """Queue ``n`` and return True when the step it follows is over on screen (its mark
        drawn) but its worker is still closing: the person pressed ``n`` for the next step,
        as they may press ctrl+j while the arguments are being checked. A step still
        running refuses ``n`` (``refuse_if_busy``): a key pressed then queues nothing."""
        from sia_tui.core.run import StepStatus  # loaded by the steps already; not at start

        active = [w for w in self.app.workers if w.group == ENGINE_GROUP and w.state in _ACTIVE]
        run = self.app.engine.run if self.app.engine is not None else None
        if not active or run is None or any(w.name != "_run_next" for w in active):
            return False
        if any(step.status is StepStatus.RUNNING for step in run.steps):
            return False
        if not self._next_queued:
            self._next_queued = True
            self.app.notify("Queued: the next step runs as soon as this one has ended.")
            self._run_queued_next(active)
        return True

    @app_work(group="queued-next")
    async def _run_queued_next(self, running: list[Worker[Any]]) -> None:
        for worker in running:
            with suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        self._next_queued = False
        self.run_next()

    @app_work(exclusive=True, group=ENGINE_GROUP)
    async def _run_next(self) -> None:
        self.view.show_latest()
        if self.app.engine is not None and self.app.engine.run.next_step is not None:
            await self.guarded(self.app.engine.step())

    def run_all(self) -> None:
        """Run every remaining step."""
        if self.sessions.refuse_if_read_only() or self.refuse_if_busy():
            return
        if self.ask_consent(self._run_all) or self.refuse_if_nothing_to_run():
            return
        self._run_all()

    @app_work(exclusive=True, group=ENGINE_GROUP)
    async def _run_all(self) -> None:
        self.view.show_latest()
        if self.app.engine is not None:
            await self.guarded(self.app.engine.run_all())
            self._explain_pause()

    def _explain_pause(self) -> None:
        """Once the run pauses: steps 7-11 wait for arguments (say where they come from),
        step 9 for a reply to the task's question (say where), or step 8 for the user's
        consent (ask)."""
        run = self.app.engine.run if self.app.engine is not None else None
        if run is not None and run.verdict.waiting_for_arguments:
            self.app.notify(ARGUMENTS_NOTICE, title="Waiting for arguments")
        elif run is not None and run.verdict.waiting_for_reply:
            self.app.notify(REPLY_NOTICE, title="The task asks a question")
        else:
            self.ask_consent(self._run_all)

    def restart(self) -> None:
        """Start again from step 1 (re-fetches the card); may interrupt running steps."""
        if self.sessions.refuse_if_read_only():
            return
        self._restart()

    @app_work(exclusive=True, group=ENGINE_GROUP)
    async def _restart(self) -> None:
        if self.app.engine is not None:
            self.view.show_latest()
            await self.guarded(self.app.engine.restart())
            await self.guarded(self.app.engine.step())

    def invoke(self, arguments: Any, send_anyway: bool) -> None:
        """Send the arguments: steps 7-11 (running 1-6 first when needed)."""
        if self.sessions.refuse_if_read_only() or self.app.engine is None or self.refuse_if_busy():
            return
        self._invoke(arguments, send_anyway)

    @app_work(exclusive=True, group=ENGINE_GROUP)
    async def _invoke(self, arguments: Any, send_anyway: bool) -> None:
        if self.app.engine is None:
            return
        self.view.show_latest()
        try:
            self.app.engine.set_arguments(arguments, send_anyway=send_anyway)
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.app.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        sent = self.view.shown_invocation
        if sent is not None:  # the earlier ones keep their own verdicts
            self.app.notify(
                f"Sending {sent.label}; [ shows the earlier ones with their verdicts.",
                title="Invocations",
            )
        self.app.withdraw_notices("Waiting for arguments")  # they were given
        # Show Results at once so streamed status updates are watched live.
        self.app.call_later(self.app.switch_mode, "results")
        await self.guarded(self.app.engine.run_all())
        self.app.withdraw_notices("Invocations")  # "Sending invocation 3 of 3" is done
        self.ask_consent(self._run_all)  # a skill that may act: step 8 waits for a yes

    def reply_to_task(self, reply: Reply) -> None:
        """Send ``reply`` to the task's open question (same taskId) and go on receiving."""
        if self.sessions.refuse_if_read_only() or self.app.engine is None or self.refuse_if_busy():
            return
        try:
            self.app.engine.reply(reply)
        except ValueError as exc:  # the task no longer waits, or asked too often
            self.app.notify(str(exc), title="Not sent", severity="warning")
            return
        self._run_all()

    def cancel_task(self) -> None:
        """Cancel the running task (when the document says it is cancellable)."""
        if self.sessions.refuse_if_read_only() or self.app.engine is None:
            return
        reason = self._why_not_cancellable()
        if reason:
            self.app.notify(reason, title="Nothing cancelled", severity="warning")
            return
        self._cancel_task()

    def _why_not_cancellable(self) -> str:
        """Why ``x`` would do nothing now (``Run.answers.cancel_refusal``), or "" when it makes
        sense."""
        run = self.app.engine.run if self.app.engine is not None else None
        if run is None or run.task is None:
            return "No task to cancel: invoke the skill first (5, then ctrl+j)."
        return run.answers.cancel_refusal

    @app_work(group="engine-cancel")
    async def _cancel_task(self) -> None:
        if self.app.engine is None:
            return
        try:
            task = await self.app.engine.cancel()
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.app.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        if task is None:
            self.app.notify(
                "Nothing was cancelled: the engine had no running task to cancel.",
                severity="warning",
            )
        else:
            self.app.notify(f"Cancel requested; the task is now {task.state}.")
        self.app.request_redraw()

    def choose_skill(self, skill_id: str) -> bool:
        """Make ``skill_id`` the skill every screen works on; False (and the user told why)
        when it is not."""
        if self.sessions.refuse_if_read_only() or self.app.engine is None or self.refuse_if_busy():
            return False  # selecting resets steps 2-11: never under a running step
        try:
            self.app.engine.select_skill(skill_id)
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.app.notify(
                str(exc),
                title="Cannot select skill",
                severity="error",
            )
            return False
        self.app.request_redraw()
        # No "press r": the one key that selects (Enter on Overview) runs the steps too.
        self.app.notify(f"Skill selected: {skill_id}.")
        return True

    # -- the plain A2A console ---------------------------------------------------------------
    def open_console(self, skill_id: str | None = None) -> None:
        """Show the console, working on ``skill_id`` (a skill without a schema interface)."""
        if skill_id is not None:
            self.app.console_state.skill_id = skill_id
        self.app.switch_mode("console")
        self.app.request_redraw()

    def send_console(self, request: ConsoleRequest) -> None:
        """Send one plain A2A message (in a worker); the console screen shows the reply."""
        if self.sessions.refuse_if_read_only():
            return
        if self.app.engine is None or self.app.engine.run.interface is None:
            self.app.notify(
                "No agent card yet: connect (c) and let step 1 pass first.", severity="warning"
            )
            return
        (
            self.app.console_state.sending,
            self.app.console_state.events,
            self.app.console_state.reply,
        ) = (
            True,
            [],
            None,
        )
        self.app.request_redraw()
        self._send_console(self.app.engine, request)

    @app_work(exclusive=True, group="console")
    async def _send_console(
        self, engine: Engine, request: ConsoleRequest, consent: bool = False
    ) -> None:
        def on_event(event: StreamEvent) -> None:
            self.app.console_state.events.append(event)
            self.app.request_redraw()

        try:
            reply = await engine.console(request, on_event, consent=consent)
            self.app.console_state.reply = reply
            if reply.consent_reason:  # the execute gate held it: the user may say yes
                self.app.call_later(self._ask_console_consent, engine, request, reply)
        except Exception as exc:  # noqa: BLE001 - an engine bug is shown, never a crash
            self.app.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
        finally:
            self.app.console_state.sending = False
            self.app.request_redraw()

    def _ask_console_consent(
        self, engine: Engine, request: ConsoleRequest, held: ConsoleReply
    ) -> None:
        """The console's message to a skill that may act goes only after a yes (RULES SID5),
        to that one message; a no leaves it unsent, as the reply on screen says."""
        from sia_tui.tui.screens.confirm import ConfirmScreen, consent_question

        skill = self.app.display_policy.literal(request.skill_id or "This skill", style="bold")
        question = consent_question(skill, held.consent_reason, "Send this message?")

        def answered(yes: bool | None) -> None:
            # Only while the engine asked about is still the app's and nothing is in flight.
            if not yes or engine is not self.app.engine or self.app.console_state.sending:
                self.app.notify(
                    "Nothing was sent. Press ctrl+j again to be asked again.",
                    title="Nothing sent",
                    severity="warning",
                )
                return
            self.app.console_state.sending, self.app.console_state.events = True, []
            self.app.console_state.reply = None
            self.app.request_redraw()
            self._send_console(engine, request, consent=True)

        self.app.push_screen(ConfirmScreen(question), answered)
