"""The interface diff API (RULES SID2) the CLI and the TUI import.

The diff is ``sia_tui.core.interface.document_diff`` over ``sia_tui.core.schemas.schema_diff``.
Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.interface.document_diff import InterfaceDiff as InterfaceDiff
    from sia_tui.core.interface.document_diff import VersionVerdict as VersionVerdict
    from sia_tui.core.interface.document_diff import check_version_rule as check_version_rule
    from sia_tui.core.interface.document_diff import diff_documents as diff_documents
    from sia_tui.core.schemas.schema_diff import Change as Change
    from sia_tui.core.schemas.schema_diff import Impact as Impact

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "Change": "sia_tui.core.schemas.schema_diff",
    "Impact": "sia_tui.core.schemas.schema_diff",
    "InterfaceDiff": "sia_tui.core.interface.document_diff",
    "VersionVerdict": "sia_tui.core.interface.document_diff",
    "check_version_rule": "sia_tui.core.interface.document_diff",
    "diff_documents": "sia_tui.core.interface.document_diff",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
