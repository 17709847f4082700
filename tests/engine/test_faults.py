"""Every reference-agent fault ends at the step and code its FaultSpec expects, over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import FAULT_SPECS, Fault, FaultSpec
from sia_tui.agent.runner import start_agent
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.evidence import DigestEvidence, FailureCategory
from sia_tui.core.engine.model import Run, StepStatus, Target
from sia_tui.core.engine.procedure import Procedure
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS


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


@pytest.mark.parametrize(
    ("agent_url", "spec"),
    [(spec.fault, spec) for spec in FAULT_SPECS.values()],
    ids=[str(fault) for fault in FAULT_SPECS],
    indirect=["agent_url"],
)
async def test_fault_shows_its_expected_check_outcome(agent_url: str, spec: FaultSpec) -> None:
    """The FaultSpec table (README, docs/REFERENCE-AGENT.md): where check stops, or that it
    passes all eleven steps; every step after a failure is skipped (RULES CP0)."""
    run = await check(agent_url, options=_client_for(spec.fault))
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
    blame = run.at_fault  # the sentence check, the TUI and the report all show
    assert blame is not None and blame.statement.startswith(spec.expected.at_fault), blame
    assert all(s.status is StepStatus.SKIPPED for s in run.steps[stop.step :])
    assert all(s.status is StepStatus.PASSED for s in run.steps[: stop.step - 1])


@pytest.mark.parametrize("agent_url", ["not-jcs"], indirect=True)
async def test_not_jcs_forensics_names_json_dumps(agent_url: str) -> None:
    """Digest forensics recognises the vendor's json.dumps digest."""
    run = await check(agent_url)
    digests = run.evidence(DigestEvidence)
    assert digests is not None and "json.dumps" in (digests.forensics or "")


@pytest.mark.parametrize("agent_url", ["v03"], indirect=True)
async def test_v03_agent_passes_all_steps(agent_url: str) -> None:
    """A 0.3 agent is tolerated: every step passes with the 0.3 codec."""
    run = await check(agent_url)
    assert statuses(run) == ["passed"] * 11, [s.message for s in run.steps]
    assert run.interface is not None and run.interface.dialect == "0.3"


@pytest.mark.parametrize("agent_url", ["slow"], indirect=True)
async def test_slow_agent_times_out(agent_url: str) -> None:
    """A read timeout shorter than the agent's delay fails cleanly, no hang."""
    run = await check(agent_url, options=_client_for(Fault.SLOW))
    failed = run.failed_step
    assert failed is not None
    assert "tim" in failed.message.lower()
    assert "did not answer in time" in failed.hint


@pytest.mark.parametrize("agent_url", ["huge"], indirect=True)
async def test_huge_artifact_is_refused_at_the_limit(agent_url: str) -> None:
    """The read aborts at the size limit; the exchange is recorded as truncated."""
    run = await check(agent_url)
    failed = run.failed_step
    assert failed is not None and failed.code is None
    assert any(e.truncated for e in run.exchanges)
    assert "size limit" in failed.hint


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
