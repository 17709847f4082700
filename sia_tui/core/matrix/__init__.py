"""Plugfest mode: a matrix of agents × skills × bindings × modes.

This package is the matrix API the CLI and the TUI import (see ``sia_tui.core.engine``): the
plugfest file, the runner, the model and its exports. Names load on first use (``lazy_api``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # the one list: type checkers read it, exports_of() reads it at run time
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
    from sia_tui.core.matrix.report_html import matrix_to_html as matrix_to_html
    from sia_tui.core.matrix.report_json import matrix_to_json as matrix_to_json
    from sia_tui.core.matrix.report_junit import matrix_junit_suites as matrix_junit_suites
    from sia_tui.core.matrix.report_text import MARKS as MARKS
    from sia_tui.core.matrix.report_text import cell_phrase as cell_phrase
    from sia_tui.core.matrix.report_text import matrix_to_markdown as matrix_to_markdown
    from sia_tui.core.matrix.report_text import matrix_to_text as matrix_to_text
    from sia_tui.core.matrix.report_text import not_judged as not_judged

#: Public name -> (module, attribute): the lines above, read once at import.
_EXPORTS = lazy_api.exports_of(__file__)
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
