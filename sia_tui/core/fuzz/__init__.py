"""``sia-tui fuzz``: arguments generated from the skill's input schema, sent and graded.

This package is the fuzz API the CLI and the TUI import. Names load on first use
(``lazy_api``): hypothesis itself loads only when a fuzz run generates values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.fuzz.fuzzer import MAX_VALUE_BYTES as MAX_VALUE_BYTES
    from sia_tui.core.fuzz.fuzzer import Fuzzer as Fuzzer
    from sia_tui.core.fuzz.mutations import MUTATION_KINDS as MUTATION_KINDS
    from sia_tui.core.fuzz.mutations import Mutation as Mutation
    from sia_tui.core.fuzz.report_json import REPORT_FORMAT as REPORT_FORMAT
    from sia_tui.core.fuzz.report_json import fuzz_to_json as fuzz_to_json
    from sia_tui.core.fuzz.report_junit import write_fuzz_junit as write_fuzz_junit
    from sia_tui.core.fuzz.report_text import arguments_text as arguments_text
    from sia_tui.core.fuzz.report_text import case_line as case_line
    from sia_tui.core.fuzz.report_text import render_fuzz_text as render_fuzz_text
    from sia_tui.core.fuzz.results import CaseKind as CaseKind
    from sia_tui.core.fuzz.results import FindingKind as FindingKind
    from sia_tui.core.fuzz.results import FuzzCase as FuzzCase
    from sia_tui.core.fuzz.results import FuzzOutcome as FuzzOutcome
    from sia_tui.core.fuzz.results import FuzzReport as FuzzReport
    from sia_tui.core.fuzz.results import FuzzSettings as FuzzSettings
    from sia_tui.core.fuzz.session import save_fuzz_sessions as save_fuzz_sessions

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "CaseKind": "sia_tui.core.fuzz.results",
    "FindingKind": "sia_tui.core.fuzz.results",
    "FuzzCase": "sia_tui.core.fuzz.results",
    "FuzzOutcome": "sia_tui.core.fuzz.results",
    "FuzzReport": "sia_tui.core.fuzz.results",
    "FuzzSettings": "sia_tui.core.fuzz.results",
    "Fuzzer": "sia_tui.core.fuzz.fuzzer",
    "MAX_VALUE_BYTES": "sia_tui.core.fuzz.fuzzer",
    "MUTATION_KINDS": "sia_tui.core.fuzz.mutations",
    "Mutation": "sia_tui.core.fuzz.mutations",
    "REPORT_FORMAT": "sia_tui.core.fuzz.report_json",
    "arguments_text": "sia_tui.core.fuzz.report_text",
    "case_line": "sia_tui.core.fuzz.report_text",
    "fuzz_to_json": "sia_tui.core.fuzz.report_json",
    "render_fuzz_text": "sia_tui.core.fuzz.report_text",
    "save_fuzz_sessions": "sia_tui.core.fuzz.session",
    "write_fuzz_junit": "sia_tui.core.fuzz.report_junit",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
