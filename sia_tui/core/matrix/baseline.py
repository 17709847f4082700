"""The baseline: the plugfest file's expected failures, compared with what the matrix found.

An ``[[expect]]`` covers the verdict cells of its agent (and skill, and cell, when given);
it matches a failing cell when its ``step`` and ``code`` (when given) are the cell's. Then:

- a failing cell that an expectation matches is an **expected failure** (JUnit: skipped);
- any other failing cell is a **new failure**: exit 1 (a cell failing at another step or
  with another code than expected is new too: it fails differently);
- an expectation that matches no failing cell but covers a passing one **now passes**: it is
  reported ("remove it from the baseline") and does not change the exit status;
- an expectation that covers no cell at all is reported as **unused** (a typo, a skill the
  agent no longer advertises);
- an incomplete cell (could not run) makes the exit status 3, unless there is a new failure.
"""

from __future__ import annotations

from sia_tui.core.matrix.grid import (
    BaselineReport,
    Cell,
    CellRef,
    CellStatus,
    Column,
    ColumnKind,
    Matrix,
    Row,
)
from sia_tui.core.matrix.plugfest import Expectation


def _covers(expectation: Expectation, row: Row, column: Column) -> bool:
    return (
        expectation.agent == row.agent
        and expectation.skill in (None, row.skill)
        and expectation.cell in (None, column.key)
    )


def _matches(expectation: Expectation, cell: Cell) -> bool:
    return expectation.step in (None, cell.step) and expectation.code in (None, cell.code)


def compare(matrix: Matrix) -> BaselineReport:
    """Compare every verdict cell with the expectations; marks each cell expected / fixed."""
    report = BaselineReport()
    expectations = matrix.plugfest.expectations
    matched: dict[int, int] = dict.fromkeys(range(len(expectations)), 0)
    covered_passes: dict[int, list[Cell]] = {i: [] for i in range(len(expectations))}
    for row in matrix.rows:
        for column in matrix.verdict_columns:
            cell = row.cells[column.key]
            ref = CellRef(row.agent, row.skill, column.key)
            covering = [i for i, e in enumerate(expectations) if _covers(e, row, column)]
            if cell.status is CellStatus.FAIL:
                hits = [i for i in covering if _matches(expectations[i], cell)]
                for i in hits:
                    matched[i] += 1
                if hits:
                    cell.expected = expectations[hits[0]].reason
                    report.expected_failures.append(ref)
                else:
                    report.new_failures.append(ref)
            elif cell.status is CellStatus.PASS:
                for i in covering:
                    covered_passes[i].append(cell)
            elif cell.status is not CellStatus.SKIP:
                report.incomplete.append(ref)
        _mark_first_run(row, matrix)
    for index, expectation in enumerate(expectations):
        if matched[index]:
            continue
        if covered_passes[index]:
            report.now_passing.append(expectation)
            for cell in covered_passes[index]:
                cell.fixed = expectation.reason
        else:
            report.unused.append(expectation)
    return report


def _mark_first_run(row: Row, matrix: Matrix) -> None:
    """The step columns show the row's first run: its failed step is expected when a verdict
    cell of the row fails as expected at that step with that code (a failure the baseline
    knows is never shown as a new one)."""
    known = {
        (c.step, c.code): c.expected
        for c in (row.cells[column.key] for column in matrix.verdict_columns)
        if c.expected
    }
    for column in matrix.columns:
        cell = row.cells.get(column.key)
        if column.kind is ColumnKind.STEP and cell is not None and cell.status is CellStatus.FAIL:
            cell.expected = known.get((cell.step, cell.code))
