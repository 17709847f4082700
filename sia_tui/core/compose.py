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

if TYPE_CHECKING:  # the one list: type checkers read it, exports_of() reads it at run time
    from sia_tui.core.engine.obtain import ObtainedDocument as ObtainedDocument
    from sia_tui.core.engine.obtain import obtain_document as obtain_document
    from sia_tui.core.interface.composition import CompositionVerdict as CompositionVerdict
    from sia_tui.core.interface.composition import FieldComparison as FieldComparison
    from sia_tui.core.interface.composition import check_composition as check_composition
    from sia_tui.core.session.document_file import FileDocument as FileDocument
    from sia_tui.core.session.document_file import SideError as SideError
    from sia_tui.core.session.document_file import obtain_side as obtain_side

#: Public name -> (module, attribute): the lines above, read once at import.
_EXPORTS = lazy_api.exports_of(__file__)
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
