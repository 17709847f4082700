"""The exchange view shows each exchange's A2A wire verdict (``Run.answers.wire``, as ``check``
prints it): the badge, then each issue at its pointer with the spec's field name."""

from __future__ import annotations

from typing import Any

import pytest

from sia_tui.tui.screens.steps import StepsScreen
from tests.support.tui import settle, static_text


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_the_card_exchange_names_the_missing_member_at_its_pointer(
    make_app: Any, size: tuple[int, int]
) -> None:
    app = make_app("wire-missing-member")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("2", "r")
        await settle(pilot)
        await pilot.press("home")
        await settle(pilot)
        assert isinstance(app.screen, StepsScreen)
        evidence = static_text(app, "#evidence-body")
        assert "wire (A2A 1.0): 1 error" in evidence
        assert (
            "error response /defaultOutputModes AgentCard (AgentCard.default_output_modes): "
            "required member 'defaultOutputModes' is missing"
        ) in evidence
        run = app.current_run
        assert run is not None and run.verdict.outcome.value != "failed"  # no verdict changed
