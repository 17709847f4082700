"""Every reference-agent fault shows what its FaultSpec expects, over real HTTP: where `check`
stops, what its report says, and which probes fail."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import FAULT_SPECS, Fault, FaultSpec
from sia_tui.agent.serving import start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_json import run_to_json
from sia_tui.core.probe.results import Grade, ProbeReport
from sia_tui.core.run.evidence import FailureCategory, Party
from sia_tui.core.run.later_evidence import DigestEvidence
from sia_tui.core.run.read_model import Run, StepStatus, Target
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.probe import failing, probe


@pytest.fixture
def agent_url(request: pytest.FixtureRequest) -> Iterator[str]:
    fault = getattr(request, "param", None)
    agent = start_agent(AgentConfig(fault=fault, step_delay=0.02, slow_seconds=3.0))
    try:
        yield agent.url
    finally:
        agent.stop()


async def check(
    url: str,
    *,
    skill: str = "evaluate_resource_condition",
    arguments: Any = APPENDIX_B_ARGUMENTS,
    binding: str | None = None,
    mode: str | None = None,
    options: ClientOptions | None = None,
) -> Run:
    procedure = Procedure(
        Target(url, skill_id=skill, binding=binding, mode=mode), options or ClientOptions()
    )
    procedure.set_arguments(arguments)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


def statuses(run: Run) -> list[str]:
    return [s.status.value for s in run.steps]


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json"])
async def test_correct_agent_passes_all_eleven_steps(agent_url: str, binding: str) -> None:
    """Appendix B: condition_not_met with the observation record, every step green.

    RULES CP1 CP2 CP3 CP4 CP5 CP6 CP7 CP8 CP9 CP10 CP11: the whole procedure passes.
    """
    run = await check(agent_url, binding=binding)
    assert statuses(run) == ["passed"] * 11, [s.message for s in run.steps]
    assert run.result is not None
    assert run.result.data_parts()[0]["result"] == "condition_not_met"
    assert [r.kind for r in run.records] == ["resource-observation"]
    assert run.digests.advertised == run.digests.returned == run.digests.computed


def _client_for(fault: Fault) -> ClientOptions:
    """A client whose read timeout is shorter than the ``slow`` fault's delay (3 s here)."""
    if fault is Fault.SLOW:
        return ClientOptions(read_timeout=0.5, total_timeout=2.0)
    return ClientOptions()


# -- the fault table: one agent and one run per fault ------------------------------------------
# `sia-tui probe` learns with the procedure and runs steps 7-11 with the input schema's
# example before it probes, so its learning run is the run `check --args example` makes.
# One probe session per fault thus shows what check, its --json report and probe each say.


def assert_check_outcome(run: Run, spec: FaultSpec) -> None:
    """Where check stops, or that it passes all eleven steps; every step after a failure
    is skipped (RULES CP0)."""
    stop = spec.expected.check
    if stop is None:
        assert statuses(run) == ["passed"] * 11, [s.message for s in run.steps]
        return
    failed = run.failed_step
    assert failed is not None, statuses(run)
    assert (failed.step, failed.code, failed.origin) == (stop.step, stop.code, stop.origin), (
        failed.message
    )
    if stop.code is None:
        assert failed.category is FailureCategory.TRANSPORT
    blame = run.verdict.at_fault  # the sentence check, the TUI and the report all show
    assert blame is not None and blame.statement.startswith(spec.expected.at_fault), blame
    assert all(s.status is StepStatus.SKIPPED for s in run.steps[stop.step :])
    assert all(s.status is StepStatus.PASSED for s in run.steps[: stop.step - 1])


def assert_check_report(run: Run, spec: FaultSpec) -> None:
    """What `check --args example --json` shows: the exit code, the failing step, code and
    origin, and the at-fault sentence the TUI and the report show too; every failure says
    where to look next."""
    expected = spec.expected
    report = run_to_json(run)
    assert run.verdict.outcome.exit_code == expected.exit_code, report["summary"]
    error = report["error"] or {}
    stop = expected.check
    where = (stop.step, stop.code, stop.origin) if stop else (None, None, None)
    assert (error.get("step"), error.get("code"), error.get("origin")) == where
    statement = (report["at_fault"] or {}).get("statement")
    assert (statement or "").startswith(expected.at_fault), statement
    assert (stop is None) is (statement is None)
    if stop is not None:  # every failure says where to look next (a key, a command)
        assert report["steps"][stop.step - 1]["next_action"] is not None


def assert_probe_outcome(report: ProbeReport, spec: FaultSpec) -> None:
    """Expected.probe_fails is exactly the set of failing probes; a fault that stops
    `check` stops the probe before anything is probed (exit status 3 in the CLI)."""
    if spec.expected.check is not None:
        assert not report.learned and report.outcome == "not_learned"
        assert report.results == [] and report.exchanges == []
        return
    assert report.learned
    assert failing(report) == set(spec.expected.probe_fails)
    for result in report.results:
        if result.grade is Grade.FAIL:
            assert result.should_have and result.exchanges  # the exchange and the answer


def forensics_names_json_dumps(run: Run) -> None:
    """Digest forensics recognises the vendor's json.dumps digest."""
    digests = run.evidence(DigestEvidence)
    assert digests is not None and "json.dumps" in (digests.forensics or "")
    # Step 4's forensics and `--fault list` use the same words for the mistake.
    words = (digests.forensics or "").removeprefix("your digest matches ")
    assert words and words in FAULT_SPECS[Fault.NOT_JCS].description


def speaks_0_3(run: Run) -> None:
    """A 0.3 agent is tolerated: every step passes with the 0.3 codec."""
    assert run.interface is not None and run.interface.dialect == "0.3"


def times_out_cleanly(run: Run) -> None:
    """A read timeout shorter than the agent's delay fails cleanly, no hang."""
    failed = run.failed_step
    assert failed is not None
    assert "tim" in failed.message.lower()
    assert "did not answer in time" in failed.hint


def refused_at_the_size_limit(run: Run) -> None:
    """The read aborts at the size limit; the exchange is recorded as truncated. The limit
    is sia-tui's policy: nobody is blamed, the flag that raises it is named, and the task
    the agent was asked for may have completed."""
    failed = run.failed_step
    assert failed is not None and failed.code is None
    assert any(e.truncated for e in run.exchanges)
    assert "size limit" in failed.hint and "--max-response-bytes" in failed.hint
    blame = run.verdict.at_fault
    assert blame is not None and blame.party is Party.LIMIT
    assert "--max-response-bytes" in blame.statement
    assert blame.statement.endswith("the task may have completed on the agent")
    assert "response size limit was reached" in run.verdict.summary


#: What a user sees beyond the table for some faults.
FAULT_DETAILS: dict[Fault, Callable[[Run], None]] = {
    Fault.NOT_JCS: forensics_names_json_dumps,
    Fault.V03: speaks_0_3,
    Fault.SLOW: times_out_cleanly,
    Fault.HUGE: refused_at_the_size_limit,
}


@pytest.mark.parametrize("spec", list(FAULT_SPECS.values()), ids=[str(f) for f in FAULT_SPECS])
@pytest.mark.usefixtures("cli_wording")
async def test_each_fault_shows_its_expected_outcomes(
    reference_agent: StartAgent, spec: FaultSpec
) -> None:
    """The FaultSpec table (README, docs/REFERENCE-AGENT.md) against one agent and one run:
    what check, its --json report and probe show for the fault."""
    agent = reference_agent(fault=spec.fault, step_delay=0.02, slow_seconds=3.0)
    report = await probe(agent.url, options=_client_for(spec.fault))
    assert_check_outcome(report.learning, spec)
    assert_check_report(report.learning, spec)
    assert_probe_outcome(report, spec)
    detail = FAULT_DETAILS.get(spec.fault)
    if detail is not None:
        detail(report.learning)


@pytest.mark.parametrize("agent_url", ["mismatch"], indirect=True)
@pytest.mark.parametrize("mode", ["sync", "stream", "poll"])
async def test_a_rejected_task_fails_step_eight_in_every_mode(agent_url: str, mode: str) -> None:
    """A REJECTED task was never accepted (RULES ERR3): the delegation step fails, whether the
    rejection comes in the reply, after a SUBMITTED event on a stream, or at a poll."""
    run = await check(
        agent_url,
        skill="check_link_capacity",
        arguments={"link_id": "link-7", "required_mbps": 400},
        mode=mode,
    )
    assert run.mode == mode
    assert statuses(run)[7:] == ["failed", "skipped", "skipped", "skipped"], statuses(run)
    assert run.steps[7].code == "interface_mismatch"


@pytest.mark.parametrize("mode", ["stream", "poll"])
async def test_long_running_skill_in_each_mode(agent_url: str, mode: str) -> None:
    """check_link_capacity streams a record before its result, or is polled to the end."""
    procedure = Procedure(
        Target(agent_url, skill_id="check_link_capacity", mode=mode), ClientOptions()
    )
    await procedure.run_until(6)
    procedure.set_arguments({"link_id": "link-7", "required_mbps": 400})
    run = await procedure.run_all()
    await procedure.aclose()
    assert statuses(run) == ["passed"] * 11, [s.message for s in run.steps]
    assert run.mode == mode
    assert run.records, "a supporting record arrived"


async def test_document_cache_is_bound_to_the_card(agent_url: str, tmp_path: Any) -> None:
    """RULES CP12: the second run reuses the document; the report says so."""
    from sia_tui.core.engine.cache import DocumentCache

    cache = DocumentCache(tmp_path)
    for expected in (False, True):
        procedure = Procedure(
            Target(agent_url, skill_id="evaluate_resource_condition"), ClientOptions(), cache=cache
        )
        run = await procedure.run_all()
        await procedure.aclose()
        assert run.from_cache is expected
        assert statuses(run)[:6] == ["passed"] * 6
        sent = [e.purpose for e in run.exchanges]
        assert ("describe_skill" in sent) is (not expected)


async def test_cache_never_stores_a_credential_from_the_url(agent_url: str, tmp_path: Any) -> None:
    """RULES CP12 binds the target identity, not the token in its query string."""
    from sia_tui.core.engine.cache import DocumentCache

    url = (
        agent_url.replace("http://", "http://alice:pw-userinfo-1234@")
        + "/.well-known/agent-card.json?api_key=query-secret-5678"
    )
    procedure = Procedure(
        Target(url, skill_id="evaluate_resource_condition"),
        ClientOptions(),
        cache=DocumentCache(tmp_path),
    )
    run = await procedure.run_until(6)
    await procedure.aclose()
    assert run.steps[5].status is StepStatus.PASSED
    stored = "".join(p.read_text() for p in tmp_path.glob("*.json"))
    assert stored and "query-secret-5678" not in stored and "pw-userinfo-1234" not in stored


async def test_declared_constraint_is_enforced_by_the_agent(agent_url: str) -> None:
    """constraints.max_input_bytes: the client warns at step 7, the agent rejects (ERR3)."""
    big = {
        **APPENDIX_B_ARGUMENTS,
        "condition": {**APPENDIX_B_ARGUMENTS["condition"], "metric": "m" * 5000},
    }
    run = await check(agent_url, arguments=big)
    assert run.steps[6].status is StepStatus.PASSED
    assert any(f.code == "constraint_rejected" for f in run.steps[6].findings)
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (8, "constraint_rejected")
    assert failed.origin is not None and failed.origin.value == "remote"
    assert run.task is not None and run.task.state == "TASK_STATE_REJECTED"


@pytest.mark.parametrize("agent_url", ["slow"], indirect=True)
async def test_a_cancelled_step_goes_back_to_not_run(agent_url: str) -> None:
    """A UI that gives up on a running step must not leave it 'running' or half done."""
    import asyncio

    procedure = Procedure(
        Target(agent_url, skill_id="evaluate_resource_condition"), ClientOptions(read_timeout=10)
    )
    running = asyncio.ensure_future(procedure.run_all())
    while procedure.run.steps[2].status is not StepStatus.RUNNING:
        await asyncio.sleep(0.01)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    describe = procedure.run.steps[2]  # read afresh: the loop above saw it RUNNING
    assert describe.status is StepStatus.NOT_RUN
    assert procedure.run.next_step == 3
    await procedure.aclose()
