"""``InvocationControl``: what the user decides about the next invocation (steps 7-11):
its arguments, mode, push, consent, the replies to the task's questions, a cancel."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sia_tui.core import limits
from sia_tui.core.engine.context import SENT_FOR_STEP
from sia_tui.core.engine.step_runner import StepRunner
from sia_tui.core.errors import InvocationLimitReached
from sia_tui.core.limits import MAX_TURNS
from sia_tui.core.run.read_model import Run, Step, StepResult, StepStatus, frozen_copy
from sia_tui.core.run.verdicts import FIRST_INVOCATION_STEP

if TYPE_CHECKING:  # the turns load with the first question a task asks
    from sia_tui.core.a2a.task_views import Task
    from sia_tui.core.run.turns import Reply


class InvocationControl(StepRunner):
    """The invocation's inputs, set between steps; each takes effect at the next step."""

    async def run_replying(self, replies: Iterable[Reply]) -> Run:
        """Run every remaining step, answering each question the task asks with the next
        of ``replies`` (``check --reply``, replay); a reply left over is not sent, and a
        question with no reply left leaves the run waiting (incomplete)."""
        await self.run_all()
        for reply in replies:
            if not self.run.verdict.waiting_for_reply:
                break
            self.reply(reply)
            await self.run_all()
        return self.run

    def set_mode(self, mode: str | None) -> None:
        """Choose sync, stream or poll for the next invocation (None: let the engine pick)."""
        self.run.target = replace(self.run.target, mode=mode)

    def set_push(self, push: str | None) -> None:
        """Push notifications for the next invocation: "loopback" (sia-tui's receiver), an
        external receiver's URL, or None (``Target.push``)."""
        self.run.target = replace(self.run.target, push=push)

    def set_arguments(self, arguments: Any, *, send_anyway: bool = False) -> None:
        """Arguments for steps 7-11: a new invocation. The one made before, if any, is kept
        as it ended (``Run.past_invocations``) and steps 7-11 start again; a consent given
        before is taken back (it was for other arguments)."""
        run = self.run
        if run.step(Step.ARGUMENTS).status is not StepStatus.NOT_RUN:
            if len(run.past_invocations) + 1 >= limits.MAX_INVOCATIONS:
                # Each kept invocation holds its exchanges: memory grows with every send.
                raise InvocationLimitReached(
                    f"this run holds {limits.MAX_INVOCATIONS} invocations, the most one run "
                    "keeps: save the session, then restart the run to invoke again"
                )
            self._keep_invocation()
        run.arguments = arguments
        run.send_anyway = send_anyway
        run.use_example = False
        run.consent = False
        if run.step(Step.SCHEMAS).status is StepStatus.PASSED:
            self._reset_from(FIRST_INVOCATION_STEP)

    def _keep_invocation(self) -> None:
        """The current invocation, frozen into ``past_invocations``; the run keeps steps 1-6
        and their exchanges, so the next invocation's exchanges are its own."""
        run = self.run
        past = frozen_copy(run)
        past.past_invocations = []
        run.past_invocations.append(past)
        run.stream_events = []  # the events so far are the kept invocation's
        own = {seq for step in run.steps[FIRST_INVOCATION_STEP - 1 :] for seq in step.exchanges}
        run.exchanges = [ex for ex in run.exchanges if ex.seq not in own]

    def use_example(self) -> None:
        """Step 7 takes the document's first example as the arguments (``--args example``)."""
        self.set_arguments(None)
        self.run.use_example = True

    def consent_to_send(self) -> None:
        """The user's yes to the next invocation of a skill that asks for it
        (``Run.answers.consent_need``: execute authority, or approval may be required).

        Without it step 8 does not run (``Run.verdict.waiting_for_consent``: the run is finished and
        incomplete). It is good for one send: step 8 takes it, and new arguments, another
        skill or ``restart()`` start without it.
        """
        self.run.consent = True
        self._notify(None)

    def _reset_from(self, first: int) -> None:
        run = self.run
        for index in range(first - 1, 11):
            run.steps[index] = StepResult.fresh(index + 1)
        if first <= FIRST_INVOCATION_STEP:
            run.task, run.result, run.records, run.mode = None, None, [], None
            run.turns = []
            run.push = None
            run.cancel_requested = run.consent = False
            run.stream_steps = []  # a stream still open belongs to the invocation kept
            run.stream_events = []  # a new list: the invocation kept keeps its own
            self._deadline.reset()  # a new invocation gets the whole deadline
        self._notify(None)

    def reply(self, reply: Reply) -> None:
        """Answer the task's question (``Run.verdict.open_turn``): the next step 9 sends ``reply``
        on the same taskId and contextId, in the run's mode, and goes on receiving.

        Raises ValueError when the task waits for nothing. The reply is never validated
        (RULES INV11: interface 1.0 defines no schema for follow-up data).
        """
        turn = self.run.verdict.open_turn
        if turn is None:
            raise ValueError("the task does not wait for a reply")
        if len(self.run.turns) > MAX_TURNS:
            raise ValueError(f"the task asked more than {MAX_TURNS} questions; not answered")
        turn.reply_kind, turn.reply = reply.kind, reply.value
        self._notify(None)

    async def cancel(self) -> Task | None:
        """Cancel the running task when ``Run.answers.cancellable`` says a request makes sense."""
        run = self.run
        if not run.answers.cancellable or run.task is None or run.interface is None:
            return None
        waiting = run.verdict.waiting_for_reply
        run.cancel_requested = True  # step 9 then reports CANCELED as asked, not as a failure
        # Its exchange is step 9's, whether or not step 9 still runs when it is recorded.
        token = SENT_FOR_STEP.set(Step.RECEPTION)
        try:
            task = await self._ctx.client.cancel(run.interface, run.task.id)
        finally:
            SENT_FOR_STEP.reset(token)
        if waiting:
            # No step reads a task that waits for a reply: step 9 concludes from the answer.
            run.task = task
            if self._ctx.assembly is not None:
                self._ctx.assembly.adopt(task)
            await self.step()
        return task
