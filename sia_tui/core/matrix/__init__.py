"""Plugfest mode: a matrix of agents × skills × bindings × modes.

This package is the matrix API the CLI and the TUI import (see ``sia_tui.core.engine``): the
plugfest file, the runner, the model and its exports. Names load on first use (``lazy_api``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.matrix.grid import BaselineReport as BaselineReport
    from sia_tui.core.matrix.grid import Cell as Cell
    from sia_tui.core.matrix.grid import CellStatus as CellStatus
    from sia_tui.core.matrix.grid import Column as Column
    from sia_tui.core.matrix.grid import ColumnKind as ColumnKind
    from sia_tui.core.matrix.grid import CompositionCell as CompositionCell
    from sia_tui.core.matrix.grid import Matrix as Matrix
    from sia_tui.core.matrix.grid import Row as Row
    from sia_tui.core.matrix.matrix_runner import MatrixRunner as MatrixRunner
    from sia_tui.core.matrix.plugfest import PROBE_KEY as PROBE_KEY
    from sia_tui.core.matrix.plugfest import Plugfest as Plugfest
    from sia_tui.core.matrix.plugfest import PlugfestError as PlugfestError
    from sia_tui.core.matrix.plugfest import load_plugfest as load_plugfest
    from sia_tui.core.matrix.plugfest_agents import Consents as Consents
    from sia_tui.core.matrix.plugfest_agents import card_origin as card_origin
    from sia_tui.core.matrix.report_html import matrix_to_html as matrix_to_html
    from sia_tui.core.matrix.report_json import matrix_to_json as matrix_to_json
    from sia_tui.core.matrix.report_junit import matrix_junit_suites as matrix_junit_suites
    from sia_tui.core.matrix.report_text import MARKS as MARKS
    from sia_tui.core.matrix.report_text import cell_phrase as cell_phrase
    from sia_tui.core.matrix.report_text import matrix_to_markdown as matrix_to_markdown
    from sia_tui.core.matrix.report_text import matrix_to_text as matrix_to_text
    from sia_tui.core.matrix.report_text import not_judged as not_judged

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "BaselineReport": "sia_tui.core.matrix.grid",
    "Cell": "sia_tui.core.matrix.grid",
    "CellStatus": "sia_tui.core.matrix.grid",
    "Column": "sia_tui.core.matrix.grid",
    "ColumnKind": "sia_tui.core.matrix.grid",
    "CompositionCell": "sia_tui.core.matrix.grid",
    "Consents": "sia_tui.core.matrix.plugfest_agents",
    "MARKS": "sia_tui.core.matrix.report_text",
    "Matrix": "sia_tui.core.matrix.grid",
    "MatrixRunner": "sia_tui.core.matrix.matrix_runner",
    "PROBE_KEY": "sia_tui.core.matrix.plugfest",
    "Plugfest": "sia_tui.core.matrix.plugfest",
    "PlugfestError": "sia_tui.core.matrix.plugfest",
    "Row": "sia_tui.core.matrix.grid",
    "card_origin": "sia_tui.core.matrix.plugfest_agents",
    "cell_phrase": "sia_tui.core.matrix.report_text",
    "load_plugfest": "sia_tui.core.matrix.plugfest",
    "matrix_junit_suites": "sia_tui.core.matrix.report_junit",
    "matrix_to_html": "sia_tui.core.matrix.report_html",
    "matrix_to_json": "sia_tui.core.matrix.report_json",
    "matrix_to_markdown": "sia_tui.core.matrix.report_text",
    "matrix_to_text": "sia_tui.core.matrix.report_text",
    "not_judged": "sia_tui.core.matrix.report_text",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
