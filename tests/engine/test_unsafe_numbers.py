"""A result or record number beyond +/-(2^53-1) is valid JSON and may validate, but it may
have lost precision in transit: step 10 passes with a located warning for each."""

from __future__ import annotations

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.findings import Severity
from sia_tui.core.run.read_model import StepStatus, Target
from tests.support.appendix_b import run_appendix_b
from tests.support.scripted_agent import (
    BASE,
    RECORD,
    RESULT,
    SKILL,
    ScriptedAgent,
    artifact,
    task,
)


async def test_big_numbers_in_the_result_and_a_record_are_warned_at_their_pointers() -> None:
    result = {**RESULT, "observed_value": 18446744073709551615}
    record = {**RECORD, "value": 2.0**60}
    agent = ScriptedAgent(
        invoke=lambda _r: task(
            "TASK_STATE_COMPLETED",
            artifacts=[
                artifact("r1", SKILL, result),
                artifact("observation-7", "resource-observation", record),
            ],
        )
    )
    run = await run_appendix_b(
        Target(BASE, skill_id=SKILL), ClientOptions(), transport=agent.transport()
    )
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11  # warnings, not errors
    warnings = [f for f in run.steps[9].findings if f.severity is Severity.WARNING]
    assert [(f.pointer, f.rule) for f in warnings] == [
        ("/observed_value", "CP10"),
        ("/value", "CP10"),
    ]
    assert "18446744073709551615 at /observed_value" in warnings[0].message
    assert warnings[1].message.startswith("record 'observation-7': the number")
    assert "lost precision in transit" in warnings[0].message
    verdict = run.answers.result_verdict
    assert verdict is not None and verdict.valid and all(r.valid for r in run.records)
