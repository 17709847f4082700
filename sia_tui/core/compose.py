"""The composition API (RULES CMP1-CMP3) the CLI and the TUI import.

The check itself is ``sia_tui.core.interface.composition`` (documents only); fetching a
live side through steps 1-6 is ``sia_tui.core.engine.obtain``; ``obtain_side``
(``sia_tui.core.session.document_file``) takes a card or a file (a document, a payload or a
session; any other kind is named with the command that fits); ``diff`` reads its sides
the same way. Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.engine.obtain import ObtainedDocument as ObtainedDocument
    from sia_tui.core.engine.obtain import obtain_document as obtain_document
    from sia_tui.core.interface.composition import CompositionVerdict as CompositionVerdict
    from sia_tui.core.interface.composition import FieldComparison as FieldComparison
    from sia_tui.core.interface.composition import check_composition as check_composition
    from sia_tui.core.session.document_file import FileDocument as FileDocument
    from sia_tui.core.session.document_file import SideError as SideError
    from sia_tui.core.session.document_file import obtain_side as obtain_side

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "CompositionVerdict": "sia_tui.core.interface.composition",
    "FieldComparison": "sia_tui.core.interface.composition",
    "FileDocument": "sia_tui.core.session.document_file",
    "ObtainedDocument": "sia_tui.core.engine.obtain",
    "SideError": "sia_tui.core.session.document_file",
    "check_composition": "sia_tui.core.interface.composition",
    "obtain_document": "sia_tui.core.engine.obtain",
    "obtain_side": "sia_tui.core.session.document_file",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
