"""The interface diff API (RULES SID2) the CLI and the TUI import.

The diff is ``sia_tui.core.interface.document_diff`` over ``sia_tui.core.schemas.schema_diff``.
Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # the one list: type checkers read it, exports_of() reads it at run time
    from sia_tui.core.interface.document_diff import InterfaceDiff as InterfaceDiff
    from sia_tui.core.interface.document_diff import VersionVerdict as VersionVerdict
    from sia_tui.core.interface.document_diff import check_version_rule as check_version_rule
    from sia_tui.core.interface.document_diff import diff_documents as diff_documents
    from sia_tui.core.schemas.schema_diff import Change as Change
    from sia_tui.core.schemas.schema_diff import Impact as Impact

#: Public name -> (module, attribute): the lines above, read once at import.
_EXPORTS = lazy_api.exports_of(__file__)
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
