"""The reference agent passes its own wire checks on every binding; each wire fault is
named at its pointer; ``strict_wire`` (``--strict-wire``) fails the step that received it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.agent.faults import FAULT_SPECS, Fault
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bugreport.report_markdown import render_markdown
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.engine.report_text import render_text
from sia_tui.core.run.read_model import Run, StepStatus, Target
from sia_tui.core.session import load_session, replay_session, save_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, run_appendix_b


async def check(url: str, binding: str, mode: str = "sync", *, strict: bool = False) -> Run:
    target = Target(
        url, skill_id="evaluate_resource_condition", binding=binding, mode=mode, strict_wire=strict
    )
    return await run_appendix_b(target, ClientOptions())


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json", "grpc"])
@pytest.mark.parametrize("mode", ["sync", "stream"])
async def test_the_reference_agent_passes_its_own_wire_checks(
    reference_agent: StartAgent, binding: str, mode: str
) -> None:
    """Every exchange (the card, describe_skill, the invocation and each stream event; gRPC
    as ProtoJSON) is checked against A2A 1.0 and has neither an error nor a warning."""
    run = await check(reference_agent(grpc_port=0).url, binding, mode)
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11
    wire = run.answers.wire
    assert [seq for seq, _ in wire.verdicts] == [e.seq for e in run.exchanges]
    assert [(v.errors, v.warnings) for _, v in wire.verdicts] == [(0, 0)] * len(run.exchanges)
    assert wire.revisions == ("1.0",)
    kinds = {k for _, v in wire.verdicts for k in v.kinds}
    assert "AgentCard" in kinds
    assert ("StreamResponse" in kinds or "JSONRPCResponse.SendStreamingMessage" in kinds) == (
        mode == "stream"
    )


def _errors(run: Run) -> list[tuple[int, str, str, str, str | None]]:
    return [
        (seq, issue.where, issue.pointer, issue.kind, issue.field)
        for seq, verdict in run.answers.wire.verdicts
        for issue in verdict.issues
        if issue.severity.value == "error"
    ]


async def test_a_card_without_a_required_member_is_named_at_its_pointer(
    reference_agent: StartAgent,
) -> None:
    run = await check(reference_agent(fault="wire-missing-member").url, "jsonrpc")
    assert run.verdict.outcome.value == "passed"  # a wire error changes none of the eleven verdicts
    assert _errors(run) == [
        (1, "response", "/defaultOutputModes", "AgentCard", "AgentCard.default_output_modes")
    ]
    assert "wire (A2A 1.0): 3 exchanges checked, 1 error, 0 warnings" in render_text(run)
    assert run_to_json(run)["wire"]["errors"] == 1


@pytest.mark.parametrize(
    ("binding", "pointer"),
    [("jsonrpc", "/result/task/status/state"), ("http-json", "/task/status/state")],
)
async def test_a_0_3_state_spelling_is_named_at_its_pointer(
    reference_agent: StartAgent, binding: str, pointer: str
) -> None:
    run = await check(reference_agent(fault="wire-v03-state").url, binding)
    assert run.verdict.outcome.value == "passed"
    errors = _errors(run)
    assert (2, "response", pointer, "TaskStatus", "TaskStatus.state") in errors
    invoke = run.answers.wire.verdict(run.exchanges[-1].seq)
    assert invoke is not None
    assert '"completed" is not a value A2A 1.0 knows' in [i.message for i in invoke.issues]


@pytest.mark.parametrize(("binding", "pointer"), [("jsonrpc", "/result"), ("http-json", "")])
async def test_an_unknown_event_kind_is_named_at_its_pointer(
    reference_agent: StartAgent, binding: str, pointer: str
) -> None:
    run = await check(reference_agent(fault="wire-unknown-event").url, binding, "stream")
    assert _errors(run) == [(3, "event 1", pointer, "StreamResponse", None)]
    warned = [
        i for _, v in run.answers.wire.verdicts for i in v.issues if i.problem == "unknown member"
    ]
    assert [i.pointer for i in warned] == [f"{pointer}/progressUpdate"]


async def test_strict_wire_fails_the_step_that_received_the_message_locally(
    reference_agent: StartAgent,
) -> None:
    url = reference_agent(fault="wire-v03-state").url
    run = await check(url, "http-json", strict=True)
    failed = run.failed_step
    assert failed is not None and failed.step == 3  # describe_skill received the first task
    assert failed.origin is None or failed.origin.value == "local"
    assert [f.pointer for f in failed.findings] == ["/task/status/state"]
    assert "strict wire checks" in failed.message and "TaskStatus.state" in failed.message


def test_each_wire_fault_is_listed_and_says_where_the_error_is() -> None:
    for fault in (Fault.WIRE_MISSING_MEMBER, Fault.WIRE_V03_STATE, Fault.WIRE_UNKNOWN_EVENT):
        spec = FAULT_SPECS[fault]
        assert "wire error at" in spec.expected.note
        assert spec.description


async def test_the_bug_report_shows_each_wire_error_at_its_pointer(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """A vendor reading `sia-tui report` sees the revision, the count and each issue."""
    run = await check(reference_agent(fault="wire-v03-state").url, "jsonrpc")
    path = tmp_path / "wire.session.json"
    save_session(run, ClientOptions(), path)
    markdown = render_markdown(load_session(path), "wire.session.json")
    section = markdown.partition("## A2A wire conformance")[2]
    assert "wire (A2A 1.0): 3 exchanges checked, 2 errors, 0 warnings" in section
    assert (
        "| \\#2 | response | error | `/result/task/status/state` | TaskStatus | "
        'TaskStatus.state | "completed" is not a value A2A 1.0 knows |'
    ) in section


async def test_a_strict_session_replays_to_the_same_wire_failure(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """``strict_wire`` is kept with the session's target: a replay of the recorded bytes
    fails the same step at the same pointer."""
    run = await check(reference_agent(fault="wire-missing-member").url, "jsonrpc", strict=True)
    path = tmp_path / "strict.session.json"
    save_session(run, ClientOptions(), path)
    loaded = load_session(path)
    assert loaded.run.target.strict_wire
    (replayed,) = (await replay_session(loaded)).results
    assert replayed.same, replayed.changes
    failed = replayed.run.failed_step
    assert failed is not None and failed.step == 1
    assert [f.pointer for f in failed.findings] == ["/defaultOutputModes"]


@pytest.mark.parametrize("fault", [None, "wire-v03-state"])
def test_each_push_delivery_is_checked_at_its_pointer(
    reference_agent: StartAgent,
    tmp_path: Path,
    fault: str | None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`check --push`: every delivery the run's own receiver accepted is checked against
    A2A 1.0 (a StreamResponse) beside the exchanges. The reference agent's deliveries are
    clean; with `wire-v03-state` its pushed status updates spell their state the 0.3 way
    and each is named in `--json` and the text report at its pointer."""
    import json

    from sia_tui.cli import main

    args = tmp_path / "args.json"
    args.write_text(json.dumps(APPENDIX_B_ARGUMENTS))
    url = reference_agent(push="on", fault=fault).url
    command = ["check", url, "--skill", "evaluate_resource_condition", "--args", str(args)]
    main([*command, "--push", "--json", "--no-cache"])
    report = json.loads(capsys.readouterr().out)
    pushes = report["wire"]["push_deliveries"]
    assert len(pushes) == len(report["push"]["deliveries"]) > 0
    assert {kind for p in pushes for kind in p["kinds"]} == {"StreamResponse"}
    errors = [issue for p in pushes for issue in p["issues"]]
    main([*command, "--push", "--no-cache"])
    text = capsys.readouterr().out  # each delivery on the timeline says its wire check
    assert "push deliver" in text
    if fault is None:
        assert errors == [] and report["wire"]["errors"] == 0
        assert ", wire " not in text  # a clean delivery is counted in the wire line only
        assert " and 4 push deliveries checked, 0 errors, 0 warnings" in text
        return
    assert errors and all(i["pointer"].endswith("/status/state") for i in errors)
    assert {i["field"] for i in errors} == {"TaskStatus.state"}
    assert "  push #1 error " in text and ", wire 1 error" in text


async def test_what_sia_tui_sends_a_0_3_agent_passes_the_0_3_checks(
    reference_agent: StartAgent,
) -> None:
    """Against the `v03` fault (an A2A 0.3 agent), sia-tui's own requests are checked
    against A2A 0.3 too, and none of them is at fault."""
    run = await check(reference_agent(fault="v03").url, "jsonrpc")
    requests = [
        issue
        for _, verdict in run.answers.wire.verdicts
        for issue in verdict.issues
        if issue.where == "request" and issue.severity.value == "error"
    ]
    assert "0.3" in run.answers.wire.revisions
    kinds = {k for _, v in run.answers.wire.verdicts for k in v.kinds}
    assert "JSONRPCRequest.message/send" in kinds
    assert requests == []
