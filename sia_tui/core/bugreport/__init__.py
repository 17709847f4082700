"""The bug report of a saved session: its model, Markdown and HTML (``sia-tui report``).

This package is the bug report API the CLI and the TUI import. It reads sessions and probe
reports; neither of those imports it. Names load on first use (``lazy_api``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.bugreport.report_html import render_html as render_html
    from sia_tui.core.bugreport.report_markdown import render_markdown as render_markdown

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "render_html": "sia_tui.core.bugreport.report_html",
    "render_markdown": "sia_tui.core.bugreport.report_markdown",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
