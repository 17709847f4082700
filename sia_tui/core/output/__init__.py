"""Output: the policy every printed or written text passes, and JUnit XML."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.output.junit import write_junit as write_junit
    from sia_tui.core.output.policy import PassThroughStream as PassThroughStream
    from sia_tui.core.output.policy import clipboard_text as clipboard_text
    from sia_tui.core.output.policy import paint as paint
    from sia_tui.core.output.policy import printable as printable
    from sia_tui.core.output.policy import printable_in_place as printable_in_place
    from sia_tui.core.output.policy import printable_output as printable_output
    from sia_tui.core.output.policy import terminal_json as terminal_json
    from sia_tui.core.output.policy import terminal_text as terminal_text
    from sia_tui.core.output.policy import write_data as write_data
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "PassThroughStream": "sia_tui.core.output.policy",
    "clipboard_text": "sia_tui.core.output.policy",
    "paint": "sia_tui.core.output.policy",
    "printable": "sia_tui.core.output.policy",
    "printable_in_place": "sia_tui.core.output.policy",
    "printable_output": "sia_tui.core.output.policy",
    "terminal_json": "sia_tui.core.output.policy",
    "terminal_text": "sia_tui.core.output.policy",
    "write_data": "sia_tui.core.output.policy",
    "write_junit": "sia_tui.core.output.junit",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
