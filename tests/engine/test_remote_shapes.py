"""How the engine reads what an agent sends back: describe payloads, errors, artifacts."""

from __future__ import annotations

from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.later_evidence import ArgumentsEvidence, ReceptionEvidence
from sia_tui.core.run.read_model import Run, Step, StepStatus, Target
from sia_tui.core.run.verdicts import RunOutcome
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.scripted_agent import (
    BASE,
    DIGEST,
    DOCUMENT,
    RECORD,
    RESULT,
    SKILL,
    ScriptedAgent,
    artifact,
    modes_agent,
    task,
)


async def run_with(
    agent: ScriptedAgent, arguments: Any = APPENDIX_B_ARGUMENTS, *, send_anyway: bool = False
) -> Run:
    procedure = Procedure(
        Target(BASE, skill_id=SKILL), ClientOptions(), transport=agent.transport()
    )
    procedure.set_arguments(arguments, send_anyway=send_anyway)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


def completed(*artifacts: dict[str, Any]) -> ScriptedAgent:
    return ScriptedAgent(invoke=lambda _r: task("TASK_STATE_COMPLETED", artifacts=list(artifacts)))


async def test_requests_carry_exactly_the_draft_shapes() -> None:
    """RULES DS1, DS5, INV1, CP8: describe asks only for the skill id (no version is
    negotiated); the invocation carries skill_version and interface_digest."""
    agent = completed(
        artifact("r1", SKILL, RESULT), artifact("observation-7", "resource-observation", RECORD)
    )
    run = await run_with(agent)
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11
    describe, invoke = agent.requests
    assert describe == {"skill": "describe_skill", "arguments": {"skill_id": SKILL}}
    assert invoke == {
        "skill": SKILL,
        "skill_version": "1.0",
        "interface_digest": DIGEST,
        "arguments": APPENDIX_B_ARGUMENTS,
    }


async def test_describe_with_two_artifacts_is_interface_invalid() -> None:
    """RULES DS2: exactly one Artifact named describe_skill."""
    payload = {"interface_digest": DIGEST, "skill_interface": DOCUMENT}
    agent = ScriptedAgent(
        describe=lambda: task(
            "TASK_STATE_COMPLETED",
            artifacts=[
                artifact("d1", "describe_skill", payload),
                artifact("d2", "describe_skill", payload),
            ],
        )
    )
    run = await run_with(agent)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (3, "interface_invalid")
    assert "DS2" in failed.message


async def test_authorization_failure_is_remote_and_named() -> None:
    """RULES INV4, ERR3: validation is not authorization; the agent's verdict is shown."""
    agent = ScriptedAgent(
        invoke=lambda _r: task(
            "TASK_STATE_REJECTED",
            status_data=[{"code": "authorization_failed", "message": "caller not allowed"}],
        )
    )
    run = await run_with(agent)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (8, "authorization_failed")
    assert failed.origin is not None and failed.origin.value == "remote"
    assert "credentials" in failed.hint


async def test_unknown_code_and_wrong_state_are_flagged() -> None:
    """RULES ERR1, ERR2, ERR3: a code outside the ten, two data parts, the wrong state."""
    agent = ScriptedAgent(
        invoke=lambda _r: task(
            "TASK_STATE_FAILED", status_data=[{"code": "it_broke"}, {"extra": True}]
        )
    )
    run = await run_with(agent)
    step9 = run.steps[8]
    assert step9.status is StepStatus.FAILED and step9.code is None
    assert "it_broke" in " ".join(f.message for f in step9.findings)
    assert {f.rule for f in step9.findings} >= {"ERR1", "ERR2"}
    rejected = ScriptedAgent(
        invoke=lambda _r: task("TASK_STATE_FAILED", status_data=[{"code": "input_invalid"}])
    )
    run = await run_with(rejected)
    assert "ERR3" in {f.rule for f in run.steps[8].findings}


async def test_agent_details_become_located_findings() -> None:
    """RULES ERR5: the agent's details list like local findings, by JSON Pointer."""
    detail = {
        "instance_path": "/condition/threshold",
        "keyword": "type",
        "expected": "number",
        "actual": "string",
    }
    agent = ScriptedAgent(
        invoke=lambda _r: task(
            "TASK_STATE_REJECTED",
            status_data=[{"code": "input_invalid", "message": "bad", "details": [detail]}],
        )
    )
    bad = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "80"},
    }
    run = await run_with(agent, bad, send_anyway=True)
    # The invalid input is the point of the negative test: found, and sent anyway.
    assert [f.keyword for f in run.steps[6].findings] == ["type"]
    assert run.steps[6].message.startswith("deliberate negative test")
    step8 = run.steps[7]
    error = run.answers.task_error
    assert error is not None and (error.step, error.code) == (8, "input_invalid")
    assert [(f.pointer, f.keyword) for f in step8.findings if f.keyword] == [
        ("/condition/threshold", "type")
    ]


async def test_undeclared_artifact_and_dangling_reference() -> None:
    """RULES INV6, INV7, CP10: records need a declared kind; refs must name an artifact."""
    agent = completed(artifact("r1", SKILL, RESULT), artifact("x1", "mystery", RECORD))
    run = await run_with(agent)
    step10 = run.steps[9]
    assert step10.code == "output_invalid"
    assert {f.rule for f in step10.findings} == {"INV6", "INV7"}


async def test_completed_with_invalid_output_is_local_output_invalid() -> None:
    """RULES INV9: the agent said COMPLETED, the client finds the output unusable."""
    agent = completed(
        artifact("r1", SKILL, {**RESULT, "result": "maybe"}),
        artifact("observation-7", "resource-observation", RECORD),
    )
    run = await run_with(agent)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (10, "output_invalid")
    assert failed.origin is not None and failed.origin.value == "local"
    assert run.task is not None and run.task.state == "TASK_STATE_COMPLETED"


async def test_input_required_is_incomplete_not_a_failure() -> None:
    """An interrupted task is not the agent's fault: step 9 waits for a reply and the run
    is incomplete (exit 3), with the question in its summary (RULES INV11)."""
    agent = ScriptedAgent(invoke=lambda _r: task("TASK_STATE_INPUT_REQUIRED"))
    run = await run_with(agent)
    assert run.failed_step is None
    assert run.verdict.outcome is RunOutcome.INCOMPLETE and run.verdict.outcome.exit_code == 3
    assert run.step(Step.RECEPTION).status is StepStatus.NOT_RUN
    assert run.verdict.waiting_for_reply and run.verdict.finished
    assert "waits for input (TASK_STATE_INPUT_REQUIRED)" in run.verdict.summary


async def test_non_string_record_reference_is_a_finding_not_a_crash() -> None:
    """supporting_record_refs holding an object fails step 10 cleanly (RULES CP10)."""
    agent = completed(
        artifact("r1", SKILL, {**RESULT, "supporting_record_refs": [{}]}),
        artifact("observation-7", "resource-observation", RECORD),
    )
    run = await run_with(agent)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (10, "output_invalid")
    assert all(s.status is not StepStatus.RUNNING for s in run.steps)


def _streaming_document(modes: list[str], *, streaming: bool = True) -> ScriptedAgent:
    """A scripted agent whose document declares ``modes`` (digests recomputed)."""
    return modes_agent(modes, streaming=streaming)


async def test_a_stream_that_closes_early_is_polled_not_misreported() -> None:
    """RULES CP13: a closed connection is no task state; the engine asks with GetTask."""
    agent = _streaming_document(["stream"])
    agent.stream = lambda _r: [
        {"task": task("TASK_STATE_SUBMITTED")},
        {
            "statusUpdate": {
                "taskId": "task-1",
                "contextId": "ctx-1",
                "status": {"state": "TASK_STATE_WORKING"},
            }
        },
    ]
    agent.get_task = lambda: task(
        "TASK_STATE_COMPLETED",
        artifacts=[
            artifact("r1", SKILL, RESULT),
            artifact("observation-7", "resource-observation", RECORD),
        ],
    )
    run = await run_with(agent)
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11, run.failed_step
    reception = run.evidence(ReceptionEvidence)
    assert reception is not None and reception.note is not None
    assert reception.note.startswith("the stream ended before a final state")
    # This agent serves no SubscribeToTask: the note says it refused, then GetTask was used.
    assert "refused to resubscribe" in reception.note and reception.note.endswith("polled")


async def test_a_task_that_ended_before_the_resubscribe_is_said_so_not_refused() -> None:
    """A2A 1.0: SubscribeToTask on a task in a terminal state answers UnsupportedOperation.
    That is no refusal to follow: the note says the task had ended, and GetTask read it."""
    import json

    import httpx

    agent = _streaming_document(["stream"])
    agent.stream = lambda _r: [{"task": task("TASK_STATE_WORKING")}]
    agent.get_task = lambda: task(
        "TASK_STATE_COMPLETED",
        artifacts=[
            artifact("r1", SKILL, RESULT),
            artifact("observation-7", "resource-observation", RECORD),
        ],
    )
    scripted = agent.handle

    def handle(request: httpx.Request) -> httpx.Response:
        if request.content and json.loads(request.content).get("method") == "SubscribeToTask":
            rid = json.loads(request.content)["id"]
            error = {"code": -32004, "message": "task task-1 is in a terminal state"}
            return httpx.Response(200, json={"jsonrpc": "2.0", "id": rid, "error": error})
        return scripted(request)

    agent.handle = handle  # type: ignore[method-assign]
    run = await run_with(agent)
    assert run.verdict.outcome is RunOutcome.PASSED, run.verdict.summary
    reception = run.evidence(ReceptionEvidence)
    assert reception is not None and reception.note is not None
    assert "the task had ended TASK_STATE_COMPLETED before sia-tui resubscribed" in (reception.note)
    assert "refused" not in reception.note


async def test_an_undeclared_mode_is_never_used() -> None:
    """RULES SID4: only stream declared, no streaming capability: step 8 refuses to guess."""
    agent = _streaming_document(["stream"], streaming=False)
    run = await run_with(agent)
    failed = run.failed_step
    assert failed is not None and failed.step == 8
    assert "streaming capability" in failed.message
    assert len(agent.requests) == 1  # describe_skill only: the invocation was never sent


async def test_arguments_beyond_jcs_range_still_validate() -> None:
    """An integer above 2**53 is valid JSON; the size check must not fail step 7."""
    agent = completed(
        artifact("r1", SKILL, RESULT), artifact("observation-7", "resource-observation", RECORD)
    )
    big = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": 2**60},
    }
    run = await run_with(agent, big)
    assert run.steps[6].status is StepStatus.PASSED
    checked = run.evidence(ArgumentsEvidence)
    assert checked is not None and checked.arguments_bytes is None


async def test_an_agent_that_accepts_invalid_input_fails_the_negative_test() -> None:
    """Send anyway and the agent completes the task: it skipped its own validation
    (RULES INV3), so the negative test fails where the task ended (step 9), with the code
    it should have answered, and the agent is at fault."""
    agent = completed(
        artifact("r1", SKILL, RESULT), artifact("observation-7", "resource-observation", RECORD)
    )
    bad = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "threshold": "80"},
    }
    run = await run_with(agent, bad, send_anyway=True)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (9, "input_invalid")
    assert failed.message == (
        "the deliberate negative test failed: the agent accepted the request and completed "
        "the task (RULES INV3)"
    )
    blame = run.verdict.at_fault
    assert blame is not None and blame.party.value == "agent"
    assert run.verdict.outcome == "failed"
