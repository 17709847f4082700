"""``StepRunner``: runs the eleven steps one at a time, in order, recording each step's
exchanges and outcome (RULES CP0: after a failure nothing later runs); ``Procedure`` is
built on it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeAlias

import httpx

from sia_tui.core.a2a.auth.plan import provided
from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bounded import cap_findings, merge_findings, merge_warnings
from sia_tui.core.engine.context import READING_STREAM, SENT_FOR_STEP, EngineContext
from sia_tui.core.engine.deadline import RunDeadline, stop_after_deadline
from sia_tui.core.engine.outcome import StepEnds, StepFailed, StepWaits, transport_failure
from sia_tui.core.errors import DeadlineExceeded, SiaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.redaction.issued import IssuedSecrets
from sia_tui.core.run.evidence import Blame, FailureCategory, NextAction, Party
from sia_tui.core.run.read_model import Run, Step, StepResult, StepStatus, Target

if TYPE_CHECKING:  # grpc.calls imports no grpc, but nothing here needs it at run time
    from sia_tui.core.a2a.grpc.calls import GrpcTransport
    from sia_tui.core.a2a.task_views import StreamEvent
    from sia_tui.core.engine.cache import DocumentCache

StepFunction = Callable[[EngineContext, StepResult], Awaitable[None]]
#: A string: the task views (StreamEvent) load with the first task, not with step 1.
UpdateHook: TypeAlias = "Callable[[Run, StepResult | None, StreamEvent | None], None]"


def step_function(step: Step) -> StepFunction:
    """The implementation of ``step``, in the draft's order (RULES CP1-CP11). A step's
    module is imported when the step first runs: opening the debugger runs step 1 only,
    and its first screen should not wait for the modules of steps 2-11."""
    steps: dict[Step, StepFunction]
    if step <= Step.DESCRIBE:
        from sia_tui.core.engine.steps import discovery

        steps = {
            Step.CARD: discovery.retrieve_card,
            Step.SKILL: discovery.select_skill,
            Step.DESCRIBE: discovery.describe,
        }
    elif step <= Step.SCHEMAS:
        from sia_tui.core.engine.steps import verification

        steps = {
            Step.DIGESTS: verification.check_digests,
            Step.DOCUMENT: verification.check_document,
            Step.SCHEMAS: verification.check_embedded,
        }
    elif step <= Step.RECEPTION:
        from sia_tui.core.engine.steps import invocation

        steps = {
            Step.ARGUMENTS: invocation.check_arguments,
            Step.DELEGATION: invocation.delegate,
            Step.RECEPTION: invocation.receive,
        }
    else:
        from sia_tui.core.engine.steps import results

        steps = {Step.OUTPUT: results.check_output, Step.PRESENTATION: results.present}
    return steps[step]


def record_failure(result: StepResult, failure: StepFailed) -> None:
    """Mark ``result`` failed with everything ``failure`` says (code, blame, findings...)."""
    result.status = StepStatus.FAILED
    result.message = failure.message
    result.code, result.origin, result.hint = failure.code, failure.origin, failure.hint
    result.category, result.blame = failure.category, failure.blame
    result.next_action = failure.next_action
    cause = failure.__cause__  # the named error: a size limit, a timeout...
    result.error_kind = failure.error_kind or (cause.kind if isinstance(cause, SiaError) else None)
    merge_findings(result.findings, failure.findings)


class StepRunner:
    """One target's run and the step that is running; each exchange lands in its step."""

    def __init__(
        self,
        target: Target,
        options: ClientOptions,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        cache: DocumentCache | None = None,
        on_update: UpdateHook | None = None,
        grpc_transport: GrpcTransport | None = None,
    ) -> None:
        self.options = options
        self._transport = transport
        #: gRPC calls go here instead of grpc.aio (a replayed session's recorded calls).
        self._grpc_transport = grpc_transport
        self._cache = cache
        self._on_update = on_update
        #: The tokens fetched for this target, kept across its runs (the run's ``issued``).
        self.issued = IssuedSecrets()
        self.run = Run(target=target, credentials=provided(options), issued=self.issued)
        self._ctx = self._new_context(self.run)
        self._current: StepResult | None = None
        self._deadline = RunDeadline(options.deadline)

    def _new_context(self, run: Run) -> EngineContext:
        client = A2AClient(
            self.options,
            transport=self._transport,
            on_exchange=self._record,
            grpc_transport=self._grpc_transport,
            issued=self.issued,
        )
        run.trace_id = client.trace_id  # one trace per run: every exchange carries it
        ctx = EngineContext(run, client, self.options, self._cache, self._emit)
        ctx.changed = lambda: self._notify(self._current)
        return ctx

    def _record(self, exchange: Exchange) -> None:
        run = self.run
        run.exchanges.append(exchange)
        owner = SENT_FOR_STEP.get()
        if owner is not None:
            self._attach(run.steps[owner - 1], exchange.seq)
        elif READING_STREAM.get() and run.stream_steps:
            # A stream's exchange is recorded when it closes (in step 9, or after the run);
            # it belongs to step 8, which sent it, and to step 9, which read on.
            owners, run.stream_steps = run.stream_steps, []
            for number in owners:
                self._attach(run.steps[number - 1], exchange.seq)
        elif self._current is not None:
            self._current.exchanges.append(exchange.seq)

    def _attach(self, result: StepResult, seq: int) -> None:
        if result is self._current:
            result.exchanges.append(seq)
        else:  # a step that ended is replaced, never edited (a saving thread may read it)
            self.run.steps[result.step - 1] = replace(result, exchanges=[*result.exchanges, seq])

    def _emit(self, event: StreamEvent) -> None:
        self.run.stream_events.append(event)  # the invocation's own (Run.live_events)
        if self._on_update is not None:
            self._on_update(self.run, self._current, event)

    def _notify(self, step: StepResult | None) -> None:
        if self._on_update is not None:
            self._on_update(self.run, step, None)

    @property
    def finished(self) -> bool:
        """True when nothing more can run without new input (``Run.verdict.finished``)."""
        return self.run.verdict.finished

    async def step(self) -> StepResult | None:
        """Run the next step; returns it, or None when nothing can run (the run is over, or
        waits for arguments or for the user's consent to send: RULES SID5)."""
        number = self.run.next_step
        if number is None or self.finished or self._current is not None:
            return None  # nothing to run, or a step is already running (no re-entry)
        result = self.run.step(Step(number))
        result.status = StepStatus.RUNNING
        self._current = result
        self._notify(result)
        try:
            async with self._deadline.running():
                await step_function(Step(number))(self._ctx, result)
            if self.run.target.strict_wire:
                self._wire_gate(result)
            result.status = StepStatus.PASSED
        except StepEnds as end:
            self._end(result, end)
        except StepWaits as wait:
            # Not run, not failed: the run is incomplete until the user replies (reply()).
            result.status, result.message = StepStatus.NOT_RUN, wait.message
        except DeadlineExceeded as exc:
            await stop_after_deadline(self._ctx, result)
            self._fail(result, transport_failure("", exc))
        except asyncio.CancelledError:
            # The caller gave up on this step (a UI worker was replaced): it did not run.
            self.run.steps[number - 1] = StepResult.fresh(number)
            self._current = None
            self._notify(None)
            raise
        except StepFailed as failure:
            self._fail(result, failure)
        except SiaError as exc:  # a core error that escaped a step is still located
            self._fail(result, StepFailed(str(exc), error_kind=exc.kind))
        except Exception as exc:  # noqa: BLE001 - agent input must never crash the run
            message = (
                f"sia-tui could not finish this step ({type(exc).__name__}: {exc}); this is a "
                "sia-tui bug: please report it with the saved session"
            )
            self._fail(
                result,
                StepFailed(
                    message,
                    category=FailureCategory.INTERNAL,
                    blame=Blame(party=Party.TOOL, statement=message),
                    next_action=NextAction.REPORT,
                ),
            )
        finally:
            self._current = None
            if result.step != Step.DELEGATION or result.status is not StepStatus.PASSED:
                await self._ctx.close_push()  # only a task step 9 still follows needs it
            # A flood of findings is kept bounded: the first ones, and a count of the rest.
            result.findings[:] = cap_findings(result.findings)
            # What the client noticed (a cross-origin interface, a mismatched JSON-RPC id)
            # belongs in the run's report too.
            merge_warnings(self.run.warnings, self._ctx.client.warnings)
        self._notify(result)
        return result

    def _wire_gate(self, result: StepResult) -> None:
        """``--strict-wire``: the step fails, local, at the pointer of the first wire error
        in a message it received."""
        from sia_tui.core.wire import received_errors

        by_seq = {e.seq: e for e in self.run.exchanges}
        findings = received_errors(by_seq[s] for s in result.exchanges if s in by_seq)
        if findings:
            first = findings[0]
            raise StepFailed(
                f"{first.message} (at {first.pointer or '/'}; strict wire checks fail the step)",
                findings=findings,
                next_action=NextAction.SHOW_EXCHANGE,
            )

    def _fail(self, result: StepResult, failure: StepFailed) -> None:
        record_failure(result, failure)
        # RULES CP0: once a step fails, no later step runs and no request is sent.
        self._skip_after(result.step, f"skipped: step {result.step} failed")

    def _end(self, result: StepResult, end: StepEnds) -> None:
        """A step that concludes the run early: it keeps its status, the rest are skipped."""
        result.status, result.message = end.status, end.message
        self._skip_after(result.step, end.reason)

    def _skip_after(self, step: int, reason: str) -> None:
        for later in self.run.steps[step:]:
            if later.status is StepStatus.NOT_RUN:
                later.status = StepStatus.SKIPPED
                later.message = reason

    async def run_until(self, last: int) -> Run:
        """Run steps up to and including ``last`` (or until one fails)."""
        while (nxt := self.run.next_step) is not None and nxt <= last and not self.finished:
            await self.step()
        return self.run

    async def run_all(self) -> Run:
        """Run every remaining step that can run."""
        return await self.run_until(Step.PRESENTATION)

    async def aclose(self) -> None:
        """Close any open stream, the push receiver and the HTTP client."""
        await self._ctx.close_stream()
        await self._ctx.close_push()
        await self._ctx.client.aclose()
