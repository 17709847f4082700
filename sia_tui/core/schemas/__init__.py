"""JSON Schemas: the compiled validator, argument skeletons, the schema diff, and the
trusted Skill Interface Schema."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.schemas.skeleton import skeleton_for as skeleton_for
    from sia_tui.core.schemas.validation import CompiledSchema as CompiledSchema
    from sia_tui.core.schemas.validation import TextValidation as TextValidation
    from sia_tui.core.schemas.validation import compile_schema as compile_schema
    from sia_tui.core.schemas.validation import validate_json_text as validate_json_text
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "CompiledSchema": "sia_tui.core.schemas.validation",
    "TextValidation": "sia_tui.core.schemas.validation",
    "compile_schema": "sia_tui.core.schemas.validation",
    "skeleton_for": "sia_tui.core.schemas.skeleton",
    "validate_json_text": "sia_tui.core.schemas.validation",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
