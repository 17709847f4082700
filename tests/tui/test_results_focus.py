"""The Results screen takes the keys where a person reads: the result itself."""

from __future__ import annotations

from typing import Any

from sia_tui.tui.widgets.blocks_view import BlocksView
from tests.support.tui import SIZE, invoke_appendix_b, settle


async def test_end_on_results_scrolls_the_result_at_once(make_app: Any) -> None:
    """large-result fails step 10 locally: pressing End right after the invocation shows
    the end of the 5 MB result, with no Tab first (the keys used to go to the hidden
    details table)."""
    app = make_app("large-result")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await invoke_appendix_b(pilot)
        view = app.screen.query_one("#result-body", BlocksView)
        assert app.focused is view
        await pilot.press("end")
        await pilot.pause()
        assert view.scroll_y > 0
