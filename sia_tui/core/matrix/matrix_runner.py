"""The matrix engine: every agent × skill × binding × mode, in one bounded asyncio run.

The CLI (``sia-tui matrix --json ...``) and the TUI's Matrix screen both drive it::

    runner = MatrixRunner(plugfest, save_dir=Path("sessions"), on_change=redraw)
    matrix = await runner.run()      # matrix.exit_code: 0 / 1 / 3

Per agent, step 1 is run once to read the card (which bindings it offers, which skills it
advertises). Per row (agent × skill), a first run over the first offered binding, in the
mode the engine picks, fills the eleven step columns. Each binding/mode column is then its
own run, unless it does not apply (a binding the card does not offer, a mode the validated
document does not declare), it is the first run itself, or the first run failed at a step
that neither the binding (1-2) nor the mode (1-7) changes. With ``probe = true`` the probe
column runs once the interface is learned. ``driver.py`` runs each procedure: at most
``jobs`` at once, each within its deadline, each saved as a redacted session.
"""

from __future__ import annotations

import asyncio
import bisect
import re
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sia_tui.core.matrix.baseline import compare
from sia_tui.core.matrix.composition import composition_table
from sia_tui.core.matrix.driver import Driven, RunDriver
from sia_tui.core.matrix.grid import (
    Cell,
    CellStatus,
    Column,
    ColumnKind,
    Matrix,
    Row,
    columns_for,
    step_key,
)
from sia_tui.core.matrix.plugfest import PROBE_KEY, Arguments, Plugfest
from sia_tui.core.matrix.plugfest_agents import AgentEntry
from sia_tui.core.matrix.project import (
    Clean,
    lock_cell,
    not_declared,
    not_learned,
    not_offered,
    probe_cell,
    run_cell,
    signature_cell,
    step_cell,
    wire_cell,
)
from sia_tui.core.redaction.redact import Redactor
from sia_tui.core.run.read_model import Run, Step, Target

if TYPE_CHECKING:
    import httpx

#: Called after each change: the matrix, the row that changed (None: the whole table).
ChangeHook = Callable[[Matrix, Row | None], None]
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
#: Most skills taken from one card when the file names none (each is a row of runs).
MAX_ADVERTISED_SKILLS = 32
#: Up to this step a run is the same for every binding and mode (the card, the skill).
_SAME_FOR_EVERY_BINDING = 2
#: Up to this step a run is the same in every mode (the mode is chosen at step 8).
_SAME_FOR_EVERY_MODE = 7


def _slug(text: str) -> str:
    return _UNSAFE.sub("_", text)[:60] or "_"


class MatrixRunner:
    """Fills a :class:`Matrix` for a plugfest file."""

    def __init__(
        self,
        plugfest: Plugfest,
        *,
        save_dir: Path | None = None,
        jobs: int | None = None,
        deadline: float | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        on_change: ChangeHook | None = None,
        allow_execute: bool = False,
        trace: bool = True,
        tracestate: str | None = None,
        otlp_endpoint: str | None = None,
    ) -> None:
        self.plugfest = plugfest
        #: The user's collector (``--otlp-endpoint``), never the plugfest file's.
        self.otlp_endpoint = otlp_endpoint
        #: The user's trace headers (``--no-trace``, ``--tracestate``), for every run.
        self.trace, self.tracestate = trace, tracestate
        self.allow_execute = allow_execute
        """Consent to invoking skills that ask for it (``--allow-execute``); without it their
        runs stop before step 8 and their cells say why (could not run)."""
        self.matrix = Matrix(plugfest, columns_for(plugfest))
        """The table, filled in as cells finish."""
        self.save_dir = save_dir
        self.jobs = jobs or plugfest.jobs
        self.deadline = deadline or plugfest.deadline
        self.warnings: list[str] = []
        """What went wrong around the runs (a session that could not be saved)."""
        self._transport = transport
        self._on_change = on_change
        self._driver: RunDriver | None = None

    @property
    def driver(self) -> RunDriver:
        """The driver of this run's procedures (made by ``run``, on its event loop)."""
        assert self._driver is not None, "run() makes the driver"
        return self._driver

    def _changed(self, row: Row | None) -> None:
        if self._on_change is not None:
            self._on_change(self.matrix, row)

    async def run(self) -> Matrix:
        """Run every cell, then the composition table and the baseline comparison."""
        if self.save_dir is not None:
            try:
                self.save_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.warnings.append(f"sessions are not saved: {exc.strerror or exc}")
                self.save_dir = None
        self._driver = RunDriver(
            jobs=self.jobs,
            deadline=self.deadline,
            save_dir=self.save_dir,
            transport=self._transport,
            warnings=self.warnings,
            allow_execute=self.allow_execute,
            trace=self.trace,
            tracestate=self.tracestate,
            otlp_endpoint=self.otlp_endpoint,
        )
        async with asyncio.TaskGroup() as group:
            for index, agent in enumerate(self.plugfest.agents):
                group.create_task(self._guarded(self._agent(group, index, agent), agent.name))
        table = composition_table(self.matrix.rows)
        self.matrix.composition, self.matrix.composition_not_listed = table.pairs, table.not_listed
        self.matrix.baseline = compare(self.matrix)
        self._changed(None)
        return self.matrix

    async def _guarded(self, work: Coroutine[Any, Any, None], agent: str) -> None:
        """Run ``work``; a sia-tui bug marks the agent's unfinished cells, never the table."""
        try:
            await work
        except Exception as exc:  # noqa: BLE001 - one bad row must not end the whole matrix
            message = (
                f"sia-tui could not finish this cell ({type(exc).__name__}: {exc}); "
                "this is a sia-tui bug: please report it"
            )
            for row in self.matrix.rows:
                if row.agent == agent:
                    for cell in row.cells.values():
                        if not cell.done:
                            cell.status, cell.summary = CellStatus.INCOMPLETE, message
                    self._changed(row)

    # -- one agent --------------------------------------------------------------------------
    async def _agent(self, group: asyncio.TaskGroup, index: int, agent: AgentEntry) -> None:
        clean = _cleaner(agent)
        prefix = f"{index + 1:02d}-{_slug(agent.name)}"
        card = await self.driver.drive(
            Target(agent.card, anchors=agent.anchors), agent, None, Step.CARD
        )
        if card.run.card is None:  # the card could not be read: every cell says so
            card.session = await self.driver.save_run(card.run, agent, f"{prefix}--card")
            named: list[str | None] = [*self._explicit_skills(agent)] or [None]
            for place, skill in enumerate(named):
                self._fill(self._new_row(agent, skill, (index, place)), card, clean)
            return
        advertised = card.run.answers.advertised_skills
        skills = self._skills_for(agent, advertised)
        offered = [b for b in self.plugfest.bindings if _offers(card.run, b)]
        if not skills:
            row = self._new_row(agent, None, (index, 0))
            if advertised:  # the plugfest tries none of the skills this agent has
                tried = ", ".join(s.id for s in self.plugfest.skills)
                for key in row.cells:
                    row.cells[key] = Cell(CellStatus.SKIP, f"advertises none of {tried}")
                self._changed(row)
                return
            work = self._row(row, agent, clean, prefix, offered)
            group.create_task(self._guarded(work, agent.name))
            return
        for place, skill in enumerate(skills):
            row = self._new_row(agent, skill, (index, place))
            work = self._row(row, agent, clean, f"{prefix}--{_slug(skill)}", offered)
            group.create_task(self._guarded(work, agent.name))

    def _explicit_skills(self, agent: AgentEntry) -> list[str]:
        if agent.skills is not None:
            return list(agent.skills)
        return [s.id for s in self.plugfest.skills]

    def _skills_for(self, agent: AgentEntry, advertised: list[str]) -> list[str]:
        """The agent's own list; else the plugfest's skills it advertises; else all it has."""
        if agent.skills is not None:
            return list(agent.skills)
        if self.plugfest.skills:
            return [s.id for s in self.plugfest.skills if s.id in advertised]
        if len(advertised) > MAX_ADVERTISED_SKILLS:  # a card is agent data: bound what it costs
            self.warnings.append(
                f"{agent.name}: the card advertises {len(advertised)} skills; the first "
                f"{MAX_ADVERTISED_SKILLS} are tried (name the skills with [[skill]])"
            )
        return advertised[:MAX_ADVERTISED_SKILLS]

    def _new_row(self, agent: AgentEntry, skill: str | None, order: tuple[int, int]) -> Row:
        """Add a row of pending cells where the file's order puts it (agents finish in any
        order; the table must not depend on it)."""
        row = Row(agent.name, skill, {c.key: Cell() for c in self.matrix.columns}, order=order)
        bisect.insort(self.matrix.rows, row, key=lambda r: r.order)
        self._changed(row)
        return row

    # -- one row ----------------------------------------------------------------------------
    async def _row(
        self,
        row: Row,
        agent: AgentEntry,
        clean: Clean,
        prefix: str,
        offered: list[str],
    ) -> None:
        arguments = self.plugfest.arguments_for(row.skill) if row.skill else None
        # No binding the plugfest tries: the first run asks for its first one and step 1 fails.
        first_binding = offered[0] if offered else self.plugfest.bindings[0]
        target = Target(
            agent.card, skill_id=row.skill, binding=first_binding, anchors=agent.anchors
        )
        self._mark_running(row, [c for c in self.matrix.columns if not c.verdict])
        last = Step.PRESENTATION
        first = await self.driver.drive(target, agent, arguments, last, f"{prefix}--first")
        self._fill_steps(row, first, clean)
        row.document = first.run.answers.validated_document
        row.describe_task_id = first.run.answers.describe_task_id
        row.no_document = "" if row.document else clean(first.run.verdict.headline)
        as_column = self._cell_of(first, clean)
        unlearned = None if row.document is not None else not_learned(first.run, clean)
        pending: list[tuple[Column, Target]] = []
        for column in self._binding_mode_columns:
            assert column.binding is not None and column.mode is not None
            if not offered:  # no binding to try: the first run's step 1 says why
                cell = replace(as_column)
            elif column.binding not in offered:
                cell = not_offered(column.binding)
            elif row.document is not None and column.mode not in first.run.answers.declared_modes:
                cell = not_declared(column.mode, first.run.answers.declared_modes)
            elif _same_run(first.run, column, first_binding):
                cell = replace(as_column)
            else:
                pending.append(
                    (
                        column,
                        Target(agent.card, row.skill, column.binding, column.mode, agent.anchors),
                    )
                )
                continue
            row.cells[column.key] = cell
        # Only the projection stays (the run is in its session file): slots are first come,
        # first served, so every row's first run ends before its columns run, and a row
        # would otherwise hold its run while it waits.
        del first
        self._changed(row)
        self._mark_running(row, [column for column, _ in pending])
        work = [
            self._column(row, column, target, agent, arguments, clean, prefix)
            for column, target in pending
        ]
        if self.plugfest.probe:
            work.append(self._probe(row, agent, arguments, clean, prefix, unlearned, target))
        await asyncio.gather(*work)

    @property
    def _binding_mode_columns(self) -> list[Column]:
        return [c for c in self.matrix.columns if c.kind is ColumnKind.BINDING_MODE]

    async def _probe(
        self,
        row: Row,
        agent: AgentEntry,
        arguments: Arguments | None,
        clean: Clean,
        prefix: str,
        unlearned: Cell | None,
        target: Target,
    ) -> None:
        """The probe column: only once the first run learned the interface (steps 1-6);
        ``unlearned``: the cell that says why it did not."""
        if unlearned is not None:
            row.cells[PROBE_KEY] = unlearned
            self._changed(row)
            return
        self._mark_running(row, [c for c in self.matrix.columns if c.key == PROBE_KEY])
        probed = await self.driver.probe(target, agent, arguments, f"{prefix}--probe")
        cell = probe_cell(probed.report, clean, stopped=probed.stopped)
        cell.session, cell.seconds = probed.session, round(probed.seconds, 3)
        row.cells[PROBE_KEY] = cell
        self._changed(row)

    async def _column(
        self,
        row: Row,
        column: Column,
        target: Target,
        agent: AgentEntry,
        arguments: Arguments | None,
        clean: Clean,
        prefix: str,
    ) -> None:
        name = f"{prefix}--{_slug(column.key)}"
        driven = await self.driver.drive(target, agent, arguments, Step.PRESENTATION, name)
        row.cells[column.key] = self._cell_of(driven, clean)
        self._changed(row)

    def _mark_running(self, row: Row, columns: list[Column]) -> None:
        for column in columns:
            row.cells[column.key].status = CellStatus.RUNNING
        self._changed(row)

    # -- projections ------------------------------------------------------------------------
    @staticmethod
    def _cell_of(driven: Driven, clean: Clean) -> Cell:
        cell = run_cell(driven.run, clean, stopped=driven.stopped)
        cell.session, cell.seconds = driven.session, round(driven.seconds, 3)
        return cell

    def _fill_steps(self, row: Row, driven: Driven, clean: Clean) -> None:
        for step in driven.run.steps:
            cell = step_cell(step, driven.run, clean)
            cell.session = driven.session
            row.cells[step_key(step.step)] = cell
        projections = (
            (ColumnKind.SIGNATURE, signature_cell),
            (ColumnKind.LOCK, lock_cell),
            (ColumnKind.WIRE, wire_cell),
        )
        for kind, project in projections:
            if kind.value in row.cells:
                row.cells[kind.value] = project(driven.run, clean)
                row.cells[kind.value].session = driven.session

    def _fill(self, row: Row, driven: Driven, clean: Clean) -> None:
        """Every cell of ``row`` from one run (the card could not be read)."""
        self._fill_steps(row, driven, clean)
        for column in self._binding_mode_columns:
            row.cells[column.key] = self._cell_of(driven, clean)
        if self.plugfest.probe:
            row.cells[PROBE_KEY] = not_learned(driven.run, clean)
        self._changed(row)


def _same_run(first: Run, column: Column, first_binding: str) -> bool:
    """True when ``column``'s run would repeat the row's first run: the same binding and
    mode, or a failure at a step that neither the binding nor the mode changes."""
    failed = first.failed_step
    same_binding = column.binding == first_binding
    if failed is not None and failed.step <= _SAME_FOR_EVERY_BINDING:
        return True
    if failed is not None and failed.step <= _SAME_FOR_EVERY_MODE and same_binding:
        return True
    return same_binding and column.mode == first.mode


def _offers(run: Run, binding: str) -> bool:
    """True when the card read by ``run`` has a callable interface for ``binding``."""
    from sia_tui.core.engine.steps.discovery import choose_interface

    return run.card is not None and choose_interface(run.card, binding) is not None


def _cleaner(agent: AgentEntry) -> Clean:
    """The agent's redactor: its credentials never reach a cell's text."""
    redactor = Redactor.from_options(
        agent.options,
        location=agent.card,
        secret_values=agent.secret_values,
        secret_headers=agent.secret_headers,
    )
    return lambda text: redactor.text(text, "matrix")
