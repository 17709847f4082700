"""The probe engine: learn the interface with the Procedure, then send and grade each probe.

Both the CLI (``sia-tui probe``) and the TUI's Probe screen drive :class:`Prober`:

    prober = Prober(target, options)
    await prober.learn()                  # steps 1-6: the card, describe_skill, the document
    if prober.needs_confirmation: ...     # execute authority: ask before valid invocations
    report = await prober.run(allow_valid_invocations=...)   # baseline 7-11, then probes
    await prober.aclose()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import httpx

from sia_tui.core.a2a.client import A2AClient
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.views import AgentCard, Interface
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.errors import SchemaError
from sia_tui.core.exchange import Exchange
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.probe.arguments import example_arguments
from sia_tui.core.probe.grading import EXPECTATIONS, grade
from sia_tui.core.probe.observe import observe
from sia_tui.core.probe.plan import PlanInputs, plan_probes, valid_invocations_blocked
from sia_tui.core.probe.results import Grade, PlannedProbe, ProbeKind, ProbeReport, ProbeResult
from sia_tui.core.run.answers import declares_cancellable
from sia_tui.core.run.read_model import Run, Step, Target
from sia_tui.core.schemas.validation import CompiledSchema, compile_schema

#: Called whenever the report changes (a learning step, a probe graded).
ProbeHook = Callable[[ProbeReport], None]
#: Modes in the order probes prefer them: a rejection needs no stream.
_MODE_PREFERENCE = (InvocationMode.SYNC, InvocationMode.POLL, InvocationMode.STREAM)


def probe_mode(run: Run) -> str:
    """The user's mode when the document declares it, else sync, poll, stream (RULES SID4)."""
    declared = run.answers.declared_modes
    if run.target.mode in declared:
        return str(run.target.mode)
    return next((m for m in _MODE_PREFERENCE if m in declared), InvocationMode.SYNC)


def without_credentials(options: ClientOptions) -> ClientOptions:
    """The options with the user's headers, bearer token, API key, OAuth2 client and client
    certificate removed."""
    return dataclasses.replace(
        options, headers=(), bearer=None, cert=None, api_key=None, oauth2=None
    )


def skipped(planned: PlannedProbe) -> ProbeResult:
    """The result of a probe before it is sent: skipped, with the plan's reason."""
    expected = EXPECTATIONS[planned.kind]
    return ProbeResult(
        planned.kind,
        grade=Grade.SKIP,
        reason=planned.skip_reason,
        rule=expected.rule,
        title=expected.title,
        sent=planned.request,
        pointers=planned.pointers,
        expected=expected.describe(),
    )


class ProbeSender:
    """Sends probes to one interface and grades the answers; every exchange is recorded."""

    def __init__(
        self,
        report: ProbeReport,
        options: ClientOptions,
        iface: Interface,
        transport: httpx.AsyncBaseTransport | None,
        card_location: str,
        card: AgentCard | None = None,
    ) -> None:
        self.report = report
        self.iface = iface
        self._clients = {
            credentials: A2AClient(
                options if credentials else without_credentials(options),
                transport=transport,
                on_exchange=self._record,
            )
            for credentials in (True, False)
        }
        for client in self._clients.values():
            # The same origin rule as the Procedure's client: credentials to the card's origin.
            client.bind_card_location(card_location, card)

    def _record(self, exchange: Exchange) -> None:
        seq = len(self.report.learning.exchanges) + len(self.report.exchanges) + 1
        self.report.exchanges.append(dataclasses.replace(exchange, seq=seq))

    def _last_status(self) -> int | None:
        """The newest exchange's HTTP status (a gRPC code as the HTTP status it stands for:
        UNAUTHENTICATED is 401, so the grades read both bindings alike)."""
        return self.report.exchanges[-1].http_status if self.report.exchanges else None

    async def send(self, planned: PlannedProbe, mode: str) -> ProbeResult:
        """Send one planned probe (or record its skip) and grade the answer."""
        result = skipped(planned)
        if planned.request is None:
            return result
        first = len(self.report.exchanges)
        client = self._clients[planned.request.credentials]
        result.observed = await observe(
            client,
            self.iface,
            planned.request.data,
            mode=mode,
            purpose=f"probe {planned.kind.value}",
            last_status=self._last_status,
            cancellable=declares_cancellable(self.report.learning.document),
        )
        result.exchanges = [e.seq for e in self.report.exchanges[first:]]
        verdict = grade(planned.kind, result.observed, planned.pointers)
        result.grade, result.rule, result.reason, result.should_have = (
            verdict.grade,
            verdict.rule,
            verdict.reason,
            verdict.should_have,
        )
        return result

    async def aclose(self) -> None:
        """Close both clients."""
        for client in self._clients.values():
            await client.aclose()


class Prober:
    """Runs one probe session against one target and skill."""

    def __init__(
        self,
        target: Target,
        options: ClientOptions,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        arguments: Any = None,
        on_update: ProbeHook | None = None,
    ) -> None:
        self.options = options
        self._transport = transport
        self._on_update = on_update
        #: Valid arguments the user gave (None: the input schema's example or skeleton).
        self.given_arguments = arguments
        # No document cache: a probe records describe_skill every time (replayable session).
        self.procedure = Procedure(target, options, transport=transport, on_update=self._step)
        self.report = ProbeReport(learning=self.procedure.run)
        #: Why no valid arguments are available (set by learn()), "" when they are.
        self.arguments_problem = ""
        self._base: Any = None
        self._schema: CompiledSchema | None = None
        self._sender: ProbeSender | None = None

    def _step(self, run: Run, *_: Any) -> None:
        self.report.learning = run
        self._notify()

    def _notify(self) -> None:
        if self._on_update is not None:
            self._on_update(self.report)

    async def learn(self) -> ProbeReport:
        """Steps 1-6 (RULES CP1-CP6), then the valid arguments the probes start from."""
        await self.procedure.run_until(Step.SCHEMAS)
        self.report.learning = self.procedure.run
        if self.report.learned:
            self._prepare_arguments()
        self._notify()
        return self.report

    def _prepare_arguments(self) -> None:
        run = self.report.learning
        try:
            self._schema = compile_schema(run.answers.input_schema)
        except SchemaError as exc:  # step 6 passed, so this is a sia-tui limitation
            self.arguments_problem = f"the input schema cannot be compiled: {exc}"
            return
        if self.given_arguments is not None:
            findings = self._schema.validate(self.given_arguments)
            if findings:
                first = findings[0]
                self.arguments_problem = (
                    f"the arguments given do not validate: {display(first.pointer)} {first.message}"
                )
                return
            self._base, self.report.arguments_source = self.given_arguments, "file"
            return
        example = example_arguments(self._schema, run.answers.example_arguments)
        if example is None:
            self.arguments_problem = (
                "neither the input schema's examples nor its skeleton validate: "
                "give valid arguments to start from"
            )
            return
        self._base, self.report.arguments_source = example

    @property
    def needs_confirmation(self) -> bool:
        """True when valid invocations need the user's consent (``Run.answers.consent_need``)."""
        learned = self.report.learned and self._schema is not None
        return learned and self.report.learning.answers.consent_need is not None

    async def run(self, *, allow_valid_invocations: bool = False) -> ProbeReport:
        """The valid baseline (steps 7-11) when allowed, then every probe, graded."""
        report = self.report
        report.allow_valid_invocations = allow_valid_invocations
        if not report.learned:
            return report
        if self._schema is None:  # nothing can be built without the input schema
            report.baseline_skipped = self.arguments_problem
            report.results = [
                skipped(PlannedProbe(kind, None, skip_reason=self.arguments_problem))
                for kind in ProbeKind
            ]
            self._notify()
            return report
        blocked = valid_invocations_blocked(report.learning, allow_valid_invocations)
        report.baseline_skipped = self.arguments_problem or blocked
        if not report.baseline_skipped:
            self.procedure.set_arguments(self._base)
            if allow_valid_invocations:  # the user's yes reaches step 8 (Run.answers.consent_need)
                self.procedure.consent_to_send()
            await self.procedure.run_all()
            report.learning = self.procedure.run
            if not report.learned:  # the agent refused a valid invocation: nothing to compare
                self._notify()
                return report
        inputs = PlanInputs(
            report.learning,
            self._schema,
            self._base,
            self.arguments_problem,
            allow_valid_invocations,
        )
        report.planned = plan_probes(inputs)
        run = report.learning
        assert run.interface is not None
        report.mode = probe_mode(run)
        self._sender = ProbeSender(
            report, self.options, run.interface, self._transport, run.target.location, run.card
        )
        self._notify()
        for planned in report.planned:
            report.results.append(await self._sender.send(planned, report.mode))
            self._notify()
        return report

    async def aclose(self) -> None:
        """Close the learning procedure's client and the probes' clients."""
        await self.procedure.aclose()
        if self._sender is not None:
            await self._sender.aclose()
