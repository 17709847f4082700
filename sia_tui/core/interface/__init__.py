"""Skill Interface Documents: the checks of steps 4-6, the three-way digest comparison,
the digest forensics, the interface diff and the composition check."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.interface.threeway import DigestRow as DigestRow
    from sia_tui.core.interface.threeway import DigestSource as DigestSource
    from sia_tui.core.interface.threeway import compare_rows as compare_rows
    from sia_tui.core.interface.threeway import differing_pairs as differing_pairs
#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "DigestRow": "sia_tui.core.interface.threeway",
    "DigestSource": "sia_tui.core.interface.threeway",
    "compare_rows": "sia_tui.core.interface.threeway",
    "differing_pairs": "sia_tui.core.interface.threeway",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
