"""The fuzz engine: learn the interface with the Procedure, then send generated arguments.

Both the CLI (``sia-tui fuzz``) and the TUI's Fuzz action drive :class:`Fuzzer`:

    fuzzer = Fuzzer(target, options, FuzzSettings(examples=50, seed=7))
    await fuzzer.learn()      # steps 1-6: the card, describe_skill, the document
    report = await fuzzer.run()
    await fuzzer.aclose()

Every case is an invocation of the same ``Procedure`` (steps 7-11: the user's credentials,
limits, redaction and the one execute gate), so each is in the run and its saved session.
Invalid cases are deliberate negative tests graded by the one refusal grader. Hypothesis
runs the property in a worker thread (it is synchronous) and each case is sent on the
caller's event loop; a failing case is shrunk by hypothesis to the smallest that still fails.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx

from sia_tui.core import limits
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.errors import SchemaError, SiaError
from sia_tui.core.fuzz.grading import Graded, grade_invalid, grade_valid
from sia_tui.core.fuzz.results import CaseKind, FuzzCase, FuzzReport, FuzzSettings
from sia_tui.core.needs import Need, word
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.run.refusal import Grade, Verdict
from sia_tui.core.schemas.validation import CompiledSchema, compile_schema

if TYPE_CHECKING:
    from sia_tui.core.fuzz.mutations import Mutation

#: Called whenever the report changes (a learning step, a case graded).
FuzzHook = Callable[[FuzzReport], None]
#: The largest arguments generated, in compact JSON bytes (RULES SR7: bounded by us).
MAX_VALUE_BYTES = 4096
#: Room left in a declared max_input_bytes for the request object around the arguments.
_ENVELOPE_BYTES = 512
#: How pacing waits (a test replaces it to read the waits without waiting).
pace_sleep = asyncio.sleep


class _CaseFailed(Exception):
    """Raised inside the property so that hypothesis shrinks the failing arguments."""


class _Abandoned(BaseException):
    """The run stopped (its bounds, the user) or the event loop closed under the property
    (the app quit): hypothesis stops at once (it shrinks only Exceptions), so the worker
    thread never outlives the loop and draws nothing more once nothing more is sent."""


def _await_case(
    future: concurrent.futures.Future[FuzzCase], loop: asyncio.AbstractEventLoop
) -> FuzzCase:
    """The case sent on ``loop``, waited for in short slices so that a closed loop ends
    the wait instead of blocking the thread (and the interpreter's exit) for ever."""
    while True:
        try:
            return future.result(timeout=0.5)
        except concurrent.futures.TimeoutError:
            if loop.is_closed():
                raise _Abandoned from None
        except concurrent.futures.CancelledError:
            raise _Abandoned from None


def value_bound(document: Any) -> int:
    """The size bound of generated arguments: ours, and below a declared max_input_bytes
    (valid arguments past it would be refused for their size, not their shape)."""
    constraints = document.get("constraints") if isinstance(document, dict) else None
    limit = constraints.get("max_input_bytes") if isinstance(constraints, dict) else None
    if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
        return max(64, min(MAX_VALUE_BYTES, limit - _ENVELOPE_BYTES))
    return MAX_VALUE_BYTES


class Fuzzer:
    """Runs one fuzz session against one target and skill."""

    def __init__(
        self,
        target: Target,
        options: ClientOptions,
        settings: FuzzSettings,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        on_update: FuzzHook | None = None,
    ) -> None:
        self.settings = settings
        self._on_update = on_update
        # No document cache: every run records describe_skill (a replayable session).
        self.procedure = Procedure(target, options, transport=transport, on_update=self._step)
        self.report = FuzzReport(
            learning=self.procedure.run, skill=target.skill_id or "", settings=settings
        )
        self._graded: dict[str, FuzzCase] = {}
        self._next_send = 0.0
        self._ends = 0.0
        self._stop = False

    def _step(self, run: Run, *_: Any) -> None:
        if not self.report.cases:
            self.report.learning = run

    def _notify(self) -> None:
        if self._on_update is not None:
            self._on_update(self.report)

    def stop(self) -> None:
        """Send no further case (the TUI's cancel); the run ends as stopped."""
        self._stop = True

    async def learn(self) -> FuzzReport:
        """Steps 1-6 (RULES CP1-CP6)."""
        await self.procedure.run_until(Step.SCHEMAS)
        self.report.learning = self.procedure.run
        self.report.skill = self.procedure.run.skill_id or self.report.skill
        self._notify()
        return self.report

    def _why_not(self) -> str:
        """Why nothing may be sent ("" when cases may be)."""
        run = self.report.learning
        if not self.report.learned:
            return f"the interface was not learned: {run.verdict.summary}"
        need = run.answers.consent_need
        if need is not None and not self.settings.allow_execute:
            # The one execute gate (core/consent): a file a user is handed grants nothing.
            return f"{need.reason}: nothing was sent ({word(Need.CONSENT)} fuzzes it)"
        return ""

    async def run(self) -> FuzzReport:
        """Valid cases, then invalid ones, each property in hypothesis; bounded by
        ``examples``, ``max_time`` and ``rate``. The report has ``ended`` once it returns."""
        try:
            await self._send_cases()
        finally:
            self.report.ended = True
            self._notify()
        return self.report

    async def _send_cases(self) -> None:
        report = self.report
        report.skipped = self._why_not()
        if report.skipped:
            return
        try:
            compiled = compile_schema(report.learning.answers.input_schema)
        except SchemaError as exc:  # step 6 passed, so this is a sia-tui limitation
            report.skipped = f"the input schema cannot be compiled: {exc}"
            return
        loop = asyncio.get_running_loop()
        self._ends = time.monotonic() + self.settings.max_time
        bound = value_bound(report.learning.document)
        valid = (self.settings.examples + 1) // 2
        for kind, count in (
            (CaseKind.VALID, valid),
            (CaseKind.INVALID, self.settings.examples - valid),
        ):
            if count and not self._stopping():
                await asyncio.to_thread(self._explore, kind, count, compiled, bound, loop)
        report.runs.append(self.procedure.run)
        if not report.cases and not report.skipped:
            report.skipped = report.stopped or "no arguments could be generated"

    def _stopping(self) -> bool:
        if self._stop:
            self.report.stopped = self.report.stopped or "stopped by the user"
        elif time.monotonic() > self._ends:
            self.report.stopped = f"the time limit of {self.settings.max_time:g} s passed"
        return bool(self.report.stopped)

    def _refused(self) -> None:
        self.report.refused_by_validator += 1

    def _explore(
        self,
        kind: CaseKind,
        count: int,
        compiled: CompiledSchema,
        bound: int,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        """One property under hypothesis (in a worker thread); a failure is shrunk."""
        from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

        from sia_tui.core.fuzz import strategies

        failed: list[FuzzCase] = []

        def prop(drawn: Any) -> None:
            if self._stopping():  # past the bounds nothing more is sent, nor drawn
                raise _Abandoned
            future = asyncio.run_coroutine_threadsafe(self._case(kind, drawn), loop)
            case = _await_case(future, loop)
            if case.grade is Grade.FAIL:
                failed.append(case)
                raise _CaseFailed(case.reason)

        try:
            build = (
                strategies.valid_arguments
                if kind is CaseKind.VALID
                else strategies.invalid_arguments
            )
            strategy: Any = build(compiled, bound, self._refused)
            test = settings(
                max_examples=count,
                database=None,
                deadline=None,
                phases=(Phase.generate, Phase.shrink),
                suppress_health_check=list(HealthCheck),
                report_multiple_bugs=False,
                print_blob=False,
                verbosity=Verbosity.quiet,
            )(given(strategy)(prop))  # type: ignore[no-untyped-call]  # hypothesis' decorator
            seeded: Callable[[], None] = seed(self.settings.seed + (kind is CaseKind.INVALID))(test)
            seeded()
        except (_CaseFailed, _Abandoned):
            pass
        except Exception as exc:  # noqa: BLE001 - hypothesis' own errors: Unsatisfiable, Flaky
            if not failed:
                self.report.stopped = self.report.stopped or (
                    f"no {kind} arguments could be generated: {type(exc).__name__}: "
                    f"{str(exc)[:300]}"
                )
        if failed:
            failed[-1].shrunk = True  # hypothesis replays the smallest failing case last

    async def _case(self, kind: CaseKind, drawn: Any) -> FuzzCase:
        """Send one case (or return the one already sent with these arguments) and grade it."""
        mutation: Mutation | None = None if kind is CaseKind.VALID else drawn
        arguments = drawn if mutation is None else mutation.arguments
        key = kind + json.dumps(arguments, sort_keys=True)
        if key in self._graded:
            return self._graded[key]
        await self._pace()
        await self._room_for_one()
        verdict, finding = await self._send(kind, arguments)
        run = self.procedure.run
        case = FuzzCase(
            number=len(self.report.cases) + 1,
            kind=kind,
            arguments=arguments,
            grade=verdict.grade,
            rule=verdict.rule,
            reason=verdict.reason,
            mutation=mutation.kind if mutation else "",
            note=mutation.note if mutation else "",
            finding=finding,
            run_index=len(self.report.runs),
            invocation=len(run.past_invocations) + 1,
        )
        self._graded[key] = case
        self.report.cases.append(case)
        self._notify()
        return case

    async def _send(self, kind: CaseKind, arguments: Any) -> Graded:
        procedure = self.procedure
        procedure.set_arguments(arguments, send_anyway=kind is CaseKind.INVALID)
        if self.settings.allow_execute and procedure.run.answers.consent_need is not None:
            procedure.consent_to_send()  # the user's --allow-execute, for this one send
        try:
            await procedure.run_all()
        except SiaError as exc:
            return Verdict(Grade.FAIL, "CP8", f"not sent: {exc}"), None
        run = procedure.run
        return grade_valid(run) if kind is CaseKind.VALID else grade_invalid(run)

    async def _pace(self) -> None:
        """At most ``rate`` invocations a second, so a vendor's agent is not flooded."""
        now = time.monotonic()
        wait = self._next_send - now
        if wait > 0:
            await pace_sleep(wait)
        self._next_send = max(now, self._next_send) + 1 / self.settings.rate

    async def _room_for_one(self) -> None:
        """A run holds at most MAX_INVOCATIONS: past it the run is kept and a new one (same
        card, steps 2-6 again) holds the next cases."""
        run = self.procedure.run
        sent = run.step(Step.ARGUMENTS).status is not StepStatus.NOT_RUN
        if sent and len(run.past_invocations) + 2 >= limits.MAX_INVOCATIONS:
            self.report.runs.append(run)
            self.procedure.select_skill(self.report.skill)
            await self.procedure.run_until(Step.SCHEMAS)

    async def aclose(self) -> None:
        """Close the procedure's client."""
        await self.procedure.aclose()
