"""``sia-tui matrix --junit FILE``: one testsuite per row, one testcase per verdict cell.

A pass is a passed testcase; a new failure a ``<failure>``; an expected failure (the
baseline) and a cell that does not apply are ``<skipped>`` with the reason; a cell that could
not run is an ``<error>``. So the file's counts are the matrix's: ``failures`` is the number
of new failures, ``errors`` the cells that could not run. The step columns are not testcases
(each is part of a binding/mode run already counted).
"""

from __future__ import annotations

from sia_tui.core.codes import DetectedBy
from sia_tui.core.matrix.grid import Cell, CellStatus, Column, Matrix, Row
from sia_tui.core.matrix.report_json import DRAFT
from sia_tui.core.output.junit import CaseStatus, JUnitCase, JUnitSuite


def _detail(cell: Cell) -> str:
    lines = [cell.summary]
    if cell.step is not None:
        code = f": {cell.code} ({cell.origin or DetectedBy.LOCAL})" if cell.code else ""
        lines.append(f"step {cell.step}{code}")
    if cell.party:
        lines.append(f"at fault: {cell.party}: {cell.statement}")
    if cell.session:
        lines.append(f"session: {cell.session}")
    return "\n".join(lines)


def cell_case(row: Row, column: Column, cell: Cell) -> JUnitCase:
    """The testcase of one verdict cell."""
    classname = f"sia-tui.matrix.{row.agent}.{row.skill or 'card'}"
    name = column.key
    time = cell.seconds
    if cell.status is CellStatus.PASS:
        note = f"an expected failure now passes ({cell.fixed})" if cell.fixed else ""
        return JUnitCase(name, classname, time=time, system_out=note)
    if cell.status is CellStatus.FAIL and cell.expected:
        message = f"expected failure ({cell.expected}): {cell.summary}"
        return JUnitCase(name, classname, CaseStatus.SKIPPED, time=time, message=message)
    if cell.status is CellStatus.FAIL:
        return JUnitCase(
            name,
            classname,
            CaseStatus.FAILED,
            time=time,
            message=cell.summary,
            kind=cell.code or cell.category or "failed",
            text=_detail(cell),
        )
    if cell.status is CellStatus.SKIP:
        return JUnitCase(name, classname, CaseStatus.SKIPPED, time=time, message=cell.summary)
    message = cell.summary or "the cell did not finish"
    return JUnitCase(
        name, classname, CaseStatus.ERROR, time=time, message=message, text=_detail(cell)
    )


def matrix_junit_suites(matrix: Matrix) -> list[JUnitSuite]:
    """One suite per row."""
    columns = matrix.verdict_columns
    return [
        JUnitSuite(
            name=row.label,
            cases=tuple(cell_case(row, c, row.cells[c.key]) for c in columns),
            properties=(
                ("plugfest", matrix.plugfest.name),
                ("agent", row.agent),
                ("skill", row.skill or ""),
                ("draft", DRAFT),
            ),
        )
        for row in matrix.rows
    ]
