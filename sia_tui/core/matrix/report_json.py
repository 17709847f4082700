"""``sia-tui matrix --json``: the matrix as one JSON object (format ``sia-matrix/1``).

docs/PLUGFEST.md documents every member. Cells carry what their run said (status, step,
code, origin, who is at fault) and the path of the run's saved session.
"""

from __future__ import annotations

from typing import Any

from sia_tui.core.matrix.grid import (
    BaselineReport,
    Cell,
    CellRef,
    Column,
    CompositionCell,
    Matrix,
    Row,
)
from sia_tui.core.matrix.plugfest import Expectation

FORMAT = "sia-matrix/1"
DRAFT = "draft-huang-ainetops-agent-schema-interfaces-00"


def cell_to_json(cell: Cell) -> dict[str, Any]:
    """One cell."""
    return {
        "status": cell.status.value,
        "summary": cell.summary,
        "step": cell.step,
        "code": cell.code,
        "origin": cell.origin,
        "category": cell.category,
        "at_fault": {"party": cell.party, "statement": cell.statement} if cell.party else None,
        "mode": cell.mode,
        "session": cell.session,
        "seconds": cell.seconds,
        "expected": cell.expected,
        "now_passes": cell.fixed,
    }


def _column(column: Column) -> dict[str, Any]:
    return {
        "key": column.key,
        "kind": column.kind.value,
        "label": column.label,
        "title": column.title,
        "step": column.step,
        "binding": column.binding,
        "mode": column.mode,
    }


def _row(row: Row, columns: list[Column]) -> dict[str, Any]:
    return {
        "agent": row.agent,
        "skill": row.skill,
        "cells": {c.key: cell_to_json(row.cells[c.key]) for c in columns},
    }


def _side(row: Row) -> dict[str, Any]:
    return {"agent": row.agent, "skill": row.skill}


def _pair(pair: CompositionCell) -> dict[str, Any]:
    return {
        "upstream": _side(pair.upstream),
        "downstream": _side(pair.downstream),
        "status": pair.status,
        "summary": pair.summary,
        "differing": list(pair.differing),
        "look_alike": list(pair.look_alike),
    }


def _ref(ref: CellRef) -> dict[str, Any]:
    return {"agent": ref.agent, "skill": ref.skill, "cell": ref.column}


def _expectation(expectation: Expectation) -> dict[str, Any]:
    return {
        "agent": expectation.agent,
        "skill": expectation.skill,
        "cell": expectation.cell,
        "step": expectation.step,
        "code": expectation.code,
        "reason": expectation.reason,
        "line": expectation.line,
    }


def _baseline(report: BaselineReport) -> dict[str, Any]:
    return {
        "headline": report.headline,
        "new_failures": [_ref(r) for r in report.new_failures],
        "expected_failures": [_ref(r) for r in report.expected_failures],
        "incomplete": [_ref(r) for r in report.incomplete],
        "now_passing": [_expectation(e) for e in report.now_passing],
        "unused": [_expectation(e) for e in report.unused],
    }


def matrix_to_json(matrix: Matrix, warnings: list[str] | None = None) -> dict[str, Any]:
    """The whole matrix; call it once ``matrix.finished`` (partial tables say pending)."""
    counts = matrix.counts()
    return {
        "format": FORMAT,
        "draft": DRAFT,
        "plugfest": {"name": matrix.plugfest.name, "file": str(matrix.plugfest.source)},
        "headline": matrix.baseline.headline if matrix.baseline else "INCOMPLETE: still running",
        "exit_code": matrix.exit_code,
        "counts": {status.value: n for status, n in counts.items() if n},
        "columns": [_column(c) for c in matrix.columns],
        "rows": [_row(r, matrix.columns) for r in matrix.rows],
        "composition": [_pair(p) for p in matrix.composition],
        "composition_not_listed": matrix.composition_not_listed,
        "baseline": _baseline(matrix.baseline) if matrix.baseline else None,
        "warnings": list(matrix.plugfest.warnings) + list(warnings or ()),
    }
