"""One run of the matrix: a procedure or a probe, in its slot and within its deadline,
then its session saved, redacted with the agent's credentials.

The cell's deadline is the engine's own run deadline (``ClientOptions.deadline``, as
``check --deadline``): a run that does not finish in time fails its step, the agent at
fault, and its task is cancelled where the document allows it. A second timeout, a little
longer, is only a safety net: a run that outlives it is cut off and could not run.

A skill that asks for consent (``Run.answers.consent_need``: execute authority, or approval may be
required) is invoked only when the person who started the matrix gave it
(``sia-tui matrix --allow-execute``): without it each run stops before step 8 and its cell
says why, and the probe column skips the probes that need valid arguments.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sia_tui.core import limits
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.errors import SiaError
from sia_tui.core.matrix.closing import close_quietly
from sia_tui.core.matrix.plugfest import Arguments
from sia_tui.core.matrix.plugfest_agents import AgentEntry
from sia_tui.core.probe.prober import Prober
from sia_tui.core.probe.results import ProbeReport
from sia_tui.core.run.read_model import Run, Target

if TYPE_CHECKING:
    import httpx

#: Seconds past the deadline before the safety net cuts a run off: the engine's own cancel
#: of the task (``CANCEL_GRACE_SECONDS``) and the closing of its streams come first.
SAFETY_MARGIN = limits.CANCEL_GRACE_SECONDS + 5


@dataclass
class Driven:
    """One finished (or cut-off) run, with where its session went."""

    run: Run
    #: Why the matrix cut it ("" when it ended by itself).
    stopped: str
    seconds: float
    session: str | None


@dataclass
class Probed:
    """One finished (or cut-off) probe run, with where its session went."""

    report: ProbeReport
    stopped: str
    seconds: float
    session: str | None


class RunDriver:
    """Runs procedures and probes, at most ``jobs`` at once, each within ``deadline``."""

    def __init__(
        self,
        *,
        jobs: int,
        deadline: float,
        save_dir: Path | None,
        transport: httpx.AsyncBaseTransport | None,
        warnings: list[str],
        allow_execute: bool = False,
        trace: bool = True,
        tracestate: str | None = None,
        otlp_endpoint: str | None = None,
    ) -> None:
        self._slots = asyncio.Semaphore(jobs)
        #: The user's collector (``--otlp-endpoint``): each run's spans go there as it ends.
        self.otlp_endpoint = otlp_endpoint
        #: The user's trace choices (``--no-trace``, ``--tracestate``); never the file's.
        self._trace, self._tracestate = trace, tracestate
        self.allow_execute = allow_execute
        """The user's consent to invoking skills that ask for it (``--allow-execute``)."""
        self.deadline = deadline
        self.save_dir = save_dir
        self._transport = transport
        self._warnings = warnings

    @property
    def _cut_off(self) -> str:
        return f"cut off {SAFETY_MARGIN:g} s after the deadline of {self.deadline:g} s per cell"

    def _options(self, agent: AgentEntry) -> ClientOptions:
        """The agent's options with the cell's deadline as the run's deadline, and the
        user's trace headers."""
        return replace(
            agent.options, deadline=self.deadline, trace=self._trace, tracestate=self._tracestate
        )

    async def drive(
        self,
        target: Target,
        agent: AgentEntry,
        arguments: Arguments | None,
        last: int,
        name: str = "",
    ) -> Driven:
        """Run the procedure up to step ``last``; save its session as ``name`` (if given)."""
        async with self._slots:
            started = time.monotonic()
            procedure = Procedure(target, self._options(agent), transport=self._transport)
            if arguments is not None and arguments.example:
                procedure.use_example()
            elif arguments is not None:
                procedure.set_arguments(arguments.value)
            if self.allow_execute:
                procedure.consent_to_send()
            stopped = ""
            try:
                async with asyncio.timeout(self.deadline + SAFETY_MARGIN):
                    await procedure.run_until(last)
            except TimeoutError:
                stopped = self._cut_off
            finally:
                await close_quietly(procedure.aclose())
            seconds = time.monotonic() - started
        session = await self.save_run(procedure.run, agent, name) if name else None
        if self.otlp_endpoint is not None:
            await self._export(procedure.run, agent)
        return Driven(procedure.run, stopped, seconds, session)

    async def _export(self, run: Run, agent: AgentEntry) -> None:
        """Export the run's spans (redacted as its session is) to the user's collector."""
        from sia_tui.core.session.otlp_export import export_run  # only with the flag

        assert self.otlp_endpoint is not None
        problem = await asyncio.to_thread(  # the SDK's exporter blocks
            export_run,
            self.otlp_endpoint,
            run,
            agent.options,
            agent.secret_values,
            agent.secret_headers,
        )
        if problem is not None:
            self._warnings.append(f"{agent.name}: {problem}")

    async def probe(
        self, target: Target, agent: AgentEntry, arguments: Arguments | None, name: str
    ) -> Probed:
        """Learn the interface and send every probe; save the probe session as ``name``."""
        given = arguments.value if arguments is not None and not arguments.example else None
        async with self._slots:
            started = time.monotonic()
            options = self._options(agent)
            prober = Prober(target, options, transport=self._transport, arguments=given)
            stopped = ""
            try:  # the probes after the learning run have no engine deadline: this is theirs
                async with asyncio.timeout(self.deadline + SAFETY_MARGIN):
                    await prober.learn()
                    await prober.run(allow_valid_invocations=self.allow_execute)
            except TimeoutError:
                stopped = self._cut_off
            finally:
                await close_quietly(prober.aclose())
            seconds = time.monotonic() - started
        from sia_tui.core.probe.session import save_probe_session

        session = await self._save(save_probe_session, prober.report, agent, name)
        return Probed(prober.report, stopped, seconds, session)

    async def save_run(self, run: Run, agent: AgentEntry, name: str) -> str | None:
        """Save ``run`` as a session named ``name``; None when not saving (or it failed)."""
        from sia_tui.core.session.store import save_session

        return await self._save(save_session, run, agent, name)

    async def _save(
        self, write: Callable[..., Any], value: Any, agent: AgentEntry, name: str
    ) -> str | None:
        if self.save_dir is None:
            return None
        path = self.save_dir / f"{name}.session.json"
        try:
            await asyncio.to_thread(
                write,
                value,
                agent.options,
                path,
                secret_values=agent.secret_values,
                secret_headers=agent.secret_headers,
            )
        except SiaError as exc:
            self._warnings.append(f"{agent.name}: session not saved: {exc}")
            return None
        return str(path)
