"""What a plugfest matrix is made of: columns, rows of cells, the composition table.

Rows are agent × skill. Columns are the eleven steps (of the row's first run), one per
binding × mode (each its own run) and, with ``probe = true``, the probe (``sia-tui probe``).
A cell is a projection of one ``Run`` (``project.py``): the matrix computes no verdict of its
own. Every surface (the CLI's JSON, Markdown, HTML and JUnit, the TUI's Matrix screen) reads
this model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.codes import DetectedBy
from sia_tui.core.matrix.plugfest import (
    BINDING_LABELS,
    PROBE_KEY,
    Expectation,
    Plugfest,
    binding_mode_key,
)
from sia_tui.core.run.read_model import STEP_TITLES


class CellStatus(StrEnum):
    """A cell's state: four verdicts, and two states of a live table."""

    PASS = "pass"
    FAIL = "fail"
    #: Does not apply (a mode the document does not declare, a binding the card does not
    #: offer, a step after a failure: RULES CP0).
    SKIP = "skip"
    #: Could not run as asked (no example arguments, a sia-tui error, cut off): exit 3.
    INCOMPLETE = "incomplete"
    PENDING = "pending"
    RUNNING = "running"


#: The verdict statuses, in the order counts are shown.
VERDICTS = (CellStatus.PASS, CellStatus.FAIL, CellStatus.SKIP, CellStatus.INCOMPLETE)


class ColumnKind(StrEnum):
    """What a column shows."""

    #: One of the eleven steps of the row's first run.
    STEP = "step"
    #: A whole run over one binding in one response mode.
    BINDING_MODE = "binding_mode"
    #: ``sia-tui probe`` on the row's skill: deliberately wrong requests, each graded.
    PROBE = "probe"
    #: The card's signatures as the row's first run verified them (docs/TRUST.md).
    SIGNATURE = "signature"
    #: The interface against the agent's contract lock, in the row's first run.
    LOCK = "lock"
    #: Every A2A message of the row's first run against its revision's wire schema.
    WIRE = "wire"


#: Columns that read the row's first run and are not a verdict of their own: a required
#: signature or a drifted lock already fails that run's step 1 or 4, and its verdict cells.
_INFORMATIVE = (ColumnKind.STEP, ColumnKind.SIGNATURE, ColumnKind.LOCK, ColumnKind.WIRE)


@dataclass(frozen=True)
class Column:
    """One column of the matrix."""

    key: str
    kind: ColumnKind
    #: Short heading: ``4``, ``JSONRPC sync``.
    label: str
    #: What the column means, for a tooltip or a legend.
    title: str
    step: int | None = None
    binding: str | None = None
    mode: str | None = None

    @property
    def verdict(self) -> bool:
        """True for columns that are a run's verdict (the baseline and JUnit count these)."""
        return self.kind not in _INFORMATIVE


def step_key(step: int) -> str:
    """The key of step column ``step``: ``step4``."""
    return f"step{step}"


def columns_for(plugfest: Plugfest) -> list[Column]:
    """The eleven step columns and the wire column, then one per binding × mode in the
    file's order."""
    columns = [
        Column(step_key(n), ColumnKind.STEP, str(n), f"{title} (RULES {rule})", step=n)
        for n, (title, rule) in STEP_TITLES.items()
    ]
    # Like the steps, the wire check reads the row's first run (docs/WIRE-CHECKS.md).
    title = "every A2A message of the row's first run against the A2A wire schema"
    columns.append(Column(ColumnKind.WIRE.value, ColumnKind.WIRE, "wire", title))
    for binding in plugfest.bindings:
        for mode in plugfest.modes:
            label = f"{BINDING_LABELS[binding]} {mode}"
            columns.append(
                Column(
                    binding_mode_key(binding, mode),
                    ColumnKind.BINDING_MODE,
                    label,
                    f"all eleven steps over {BINDING_LABELS[binding]} in {mode} mode",
                    binding=binding,
                    mode=mode,
                )
            )
    if plugfest.probe:
        title = "deliberately wrong requests (sia-tui probe), each graded against its rule"
        columns.append(Column(PROBE_KEY, ColumnKind.PROBE, "probe", title))
    anchors = [a.anchors for a in plugfest.agents if a.anchors is not None]
    if any(a.keys or a.require_signature for a in anchors):
        title = "the Agent Card's signatures, verified with the agent's trusted_keys (A2A 8.4)"
        columns.append(Column(ColumnKind.SIGNATURE.value, ColumnKind.SIGNATURE, "sig", title))
    if any(a.lock is not None for a in anchors):
        title = "the interface against the agent's contract lock: drift, a wrong bump (SID2)"
        columns.append(Column(ColumnKind.LOCK.value, ColumnKind.LOCK, "lock", title))
    return columns


@dataclass
class Cell:
    """One cell: a verdict read from a run, and where that run's session is."""

    status: CellStatus = CellStatus.PENDING
    #: Why, in one sentence: the run's summary or the step's message.
    summary: str = ""
    #: The step that failed (or did not run) when the cell is not a pass.
    step: int | None = None
    #: The draft code and origin (local/remote) of a failure.
    code: str | None = None
    origin: DetectedBy | None = None
    #: The failure category: draft, transport, remote, usage, internal.
    category: str | None = None
    #: Who is at fault (agent, caller, network, sia-tui) and why.
    party: str | None = None
    statement: str | None = None
    #: The mode the run used (the engine's choice in the step columns' run).
    mode: str | None = None
    #: The saved session of the run (redacted), when sessions are saved.
    session: str | None = None
    seconds: float = 0.0
    #: The baseline's reason when this failure was expected.
    expected: str | None = None
    #: The baseline's reason when an expected failure now passes.
    fixed: str | None = None

    @property
    def done(self) -> bool:
        """True once the cell holds a verdict."""
        return self.status in VERDICTS


@dataclass
class Row:
    """One agent × skill."""

    agent: str
    #: None when the agent's card could not be read, so no skill is known.
    skill: str | None
    cells: dict[str, Cell] = field(default_factory=dict)
    #: The validated document of the row's first run (for the composition table).
    document: dict[str, Any] | None = None
    describe_task_id: str | None = None
    #: Why there is no document (the first run's headline), for the composition table.
    no_document: str = ""
    #: (agent's place in the file, skill's place): rows are shown in this order.
    order: tuple[int, int] = (0, 0)

    @property
    def label(self) -> str:
        """``vendor-a · evaluate_resource_condition``."""
        return f"{self.agent} · {self.skill or '(card)'}"

    def __repr__(self) -> str:
        # Short, as Matrix's: the cells and the document are not for logs.
        return f"Row(agent={self.agent!r}, skill={self.skill!r}, cells={len(self.cells)})"


@dataclass(frozen=True)
class CompositionCell:
    """May the upstream row's output feed the downstream row's input (RULES CMP1-CMP3)?"""

    upstream: Row
    downstream: Row
    #: ``allowed``, ``not_allowed``, or ``unavailable`` (a document was not validated).
    status: str
    summary: str
    differing: tuple[str, ...] = ()
    look_alike: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (
            f"CompositionCell({self.upstream.label!r} -> {self.downstream.label!r}: {self.status})"
        )


@dataclass(frozen=True)
class CellRef:
    """Where a cell is: its row's agent and skill, and its column."""

    agent: str
    skill: str | None
    column: str

    def describe(self) -> str:
        """``vendor-b evaluate_resource_condition HTTP+JSON/sync``."""
        return f"{self.agent} {self.skill or '(card)'} {self.column}"


@dataclass
class BaselineReport:
    """How the run compares with the expected failures."""

    new_failures: list[CellRef] = field(default_factory=list)
    expected_failures: list[CellRef] = field(default_factory=list)
    #: Expectations that matched no failure but cover a cell that now passes.
    now_passing: list[Expectation] = field(default_factory=list)
    #: Expectations that cover no cell at all.
    unused: list[Expectation] = field(default_factory=list)
    #: Cells that could not run.
    incomplete: list[CellRef] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """1 on a new failure, else 3 when a cell could not run, else 0."""
        if self.new_failures:
            return 1
        return 3 if self.incomplete else 0

    @property
    def headline(self) -> str:
        """The comparison in one sentence."""
        parts = []
        if self.new_failures:
            parts.append(f"{len(self.new_failures)} new failure(s)")
        if self.incomplete:
            parts.append(f"{len(self.incomplete)} cell(s) could not run")
        if self.expected_failures:
            parts.append(f"{len(self.expected_failures)} expected failure(s)")
        if self.now_passing:
            parts.append(f"{len(self.now_passing)} expected failure(s) now pass")
        if self.unused:
            parts.append(f"{len(self.unused)} expectation(s) match no cell")
        verdict = {0: "MATCHES THE BASELINE", 1: "NEW FAILURES", 3: "INCOMPLETE"}[self.exit_code]
        return f"{verdict}: " + ("; ".join(parts) if parts else "every cell passed or was skipped")


@dataclass
class Matrix:
    """The whole table, filled in live by the runner."""

    plugfest: Plugfest
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)
    #: The first ``limits.MAX_COMPOSITION_PAIRS`` pairs; ``composition_not_listed`` counts
    #: the pairs of rows across vendors left out.
    composition: list[CompositionCell] = field(default_factory=list)
    composition_not_listed: int = 0
    #: The comparison with the file's expected failures, once every cell is done.
    baseline: BaselineReport | None = None

    def __repr__(self) -> str:
        # Short: asyncio.run formats the result of its task with repr() (twice) as it
        # restores SIGINT, and the full repr of a 720-cell matrix, every composition pair
        # with both its rows, peaked at 455 MB and took most of a minute.
        return (
            f"Matrix(plugfest={self.plugfest.name!r}, rows={len(self.rows)}, "
            f"columns={len(self.columns)}, composition={len(self.composition)}, "
            f"finished={self.finished})"
        )

    @property
    def verdict_columns(self) -> list[Column]:
        """The binding/mode (and probe) columns: the runs' own verdicts."""
        return [c for c in self.columns if c.verdict]

    @property
    def finished(self) -> bool:
        """True once the baseline is compared (every cell has a verdict)."""
        return self.baseline is not None

    def counts(self) -> dict[CellStatus, int]:
        """How many verdict cells have each status (pending and running included)."""
        out = dict.fromkeys(CellStatus, 0)
        for row in self.rows:
            for column in self.verdict_columns:
                out[row.cells[column.key].status] += 1
        return out

    @property
    def exit_code(self) -> int:
        """0: as the baseline says; 1: a new failure; 3: a cell could not run (or unfinished)."""
        return self.baseline.exit_code if self.baseline is not None else 3
