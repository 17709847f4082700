"""Verdicts on screen (issue 10): what a person reads on each screen is the run's own verdict."""

from __future__ import annotations

from typing import Any

from tests.support.tui import SIZE, invoke_appendix_b, static_text


# -- item 3: each pane shows its own verdict, with the located error --------------------------
async def test_a_bad_record_is_not_blamed_on_the_valid_result(make_app: Any) -> None:
    """record-invalid: the result pane says valid; the record pane names the record's own
    error (pointer, keyword, message); the header shows output_invalid (local), not only
    the agent's COMPLETED."""
    app = make_app("record-invalid")
    async with app.run_test(size=SIZE) as pilot:
        await invoke_appendix_b(pilot)
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "✔ valid against the output schema" in result
    assert "does not validate" not in result
    assert "✘ does not validate against its record schema" in records
    assert '"" (root)' in records and "required" in records and "observed_at" in records
    assert "TASK_STATE_COMPLETED" in status
    assert "✘ step 10 output_invalid (local)" in status
    assert "supporting record 'observation-7' does not validate" in status


async def test_an_invalid_result_shows_its_pointer_and_reason(make_app: Any) -> None:
    """output-invalid: the result pane gives the pointer, the keyword and why; the records
    stay valid."""
    app = make_app("output-invalid")
    async with app.run_test(size=SIZE) as pilot:
        await invoke_appendix_b(pilot)
        result = static_text(app, "#result-body")
        records = static_text(app, "#records-body")
        status = static_text(app, "#status")
    assert "✘ does not validate against the output schema" in result
    assert "/result" in result and "[enum:" in result
    assert "✔ valid against its record schema" in records
    assert "✘ step 10 output_invalid (local): the result does not validate" in status
