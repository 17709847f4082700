"""Wire conformance: every A2A message an exchange recorded, checked against the JSON
Schema of its A2A revision (docs/WIRE-CHECKS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.wire.check import check_exchange as check_exchange
    from sia_tui.core.wire.check import check_push_body as check_push_body
    from sia_tui.core.wire.report import WireReport as WireReport
    from sia_tui.core.wire.report import received_errors as received_errors
    from sia_tui.core.wire.report import verdict_of as verdict_of
    from sia_tui.core.wire.report import wire_report as wire_report
    from sia_tui.core.wire.revisions import A2A_0_3 as A2A_0_3
    from sia_tui.core.wire.revisions import A2A_1_0 as A2A_1_0
    from sia_tui.core.wire.revisions import REVISIONS as REVISIONS
    from sia_tui.core.wire.verdict import WireIssue as WireIssue
    from sia_tui.core.wire.verdict import WireSeverity as WireSeverity
    from sia_tui.core.wire.verdict import WireVerdict as WireVerdict
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "A2A_0_3": "sia_tui.core.wire.revisions",
    "A2A_1_0": "sia_tui.core.wire.revisions",
    "REVISIONS": "sia_tui.core.wire.revisions",
    "WireIssue": "sia_tui.core.wire.verdict",
    "WireReport": "sia_tui.core.wire.report",
    "WireSeverity": "sia_tui.core.wire.verdict",
    "WireVerdict": "sia_tui.core.wire.verdict",
    "check_exchange": "sia_tui.core.wire.check",
    "check_push_body": "sia_tui.core.wire.check",
    "received_errors": "sia_tui.core.wire.report",
    "verdict_of": "sia_tui.core.wire.report",
    "wire_report": "sia_tui.core.wire.report",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
