"""``check`` against ``mock SESSION`` gives the verdict ``replay SESSION`` gives.

For every reference-agent fault, on each HTTP binding: a session recorded from the faulty
agent, the agent stopped, the session served by ``sia-tui mock`` (on 127.0.0.1, an
ephemeral port) and ``sia-tui check --json`` run against it with the recorded arguments;
its outcome, failed step, code, origin and party at fault are ``replay --json``'s. A
vendor who is handed the session reproduces the verdict against a live server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sia_tui.agent.faults import FAULT_SPECS, Fault
from sia_tui.agent.mock import RunningMock
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.run.read_model import Target
from tests.session.large_result import cut_large_result
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS, run_appendix_b
from tests.support.mocks import check_agrees_with_replay, saved
from tests.support.sessions import record_live

SKILL = "evaluate_resource_condition"
#: The slow fault answers after 5 s: a shorter read timeout when recording and checking.
SLOW_SECONDS = 1.5
#: v03 speaks JSON-RPC only.
CASES = [
    pytest.param(fault, binding, id=f"{fault.value}-{binding}")
    for fault in FAULT_SPECS
    for binding in ("jsonrpc", "http-json")
    if binding == "jsonrpc" or fault is not Fault.V03
]


@pytest.mark.parametrize(("fault", "binding"), CASES)
async def test_check_against_the_mock_agrees_with_replay(
    fault: Fault,
    binding: str,
    reference_agent: StartAgent,
    mocks: list[RunningMock],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if fault is Fault.LARGE_RESULT:  # no bound between its cut size and 5 MB over HTTP
        cut_large_result(monkeypatch)
    slow = fault is Fault.SLOW
    agent = reference_agent(
        fault=fault, bindings=binding, **({"slow_seconds": 5.0} if slow else {})
    )
    options = ClientOptions(read_timeout=SLOW_SECONDS) if slow else ClientOptions()
    run = await record_live(agent.url, options, arguments=APPENDIX_B_ARGUMENTS)
    session = saved(run, options, tmp_path)
    agent.stop()  # from here on only the mock answers

    flags = ["--binding", binding, *(["--timeout", str(SLOW_SECONDS)] if slow else [])]
    await check_agrees_with_replay(session, mocks, capsys, flags, APPENDIX_B_ARGUMENTS)


#: Faults whose wire symptom gRPC carries (v03 and the HTTP bodies have none there). The
#: large result keeps its 5 MB here: past gRPC's 4 MiB default receive size (the client
#: raises it to its response limit).
GRPC_FAULTS = [f for f in FAULT_SPECS if f not in (Fault.V03, Fault.MALFORMED, Fault.SLOW)]


@pytest.mark.parametrize("fault", [None, *GRPC_FAULTS], ids=lambda f: f"{f or 'none'}-grpc")
async def test_check_over_grpc_against_the_mock_agrees_with_replay(
    fault: Fault | None,
    reference_agent: StartAgent,
    mocks: list[RunningMock],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The session recorded over gRPC: the mock serves its calls on a gRPC port of its own
    and its card points there."""
    agent = reference_agent(fault=fault, grpc_port=0)
    run = await run_appendix_b(Target(agent.url, SKILL, binding="grpc"), ClientOptions())
    session = saved(run, ClientOptions(), tmp_path)
    agent.stop()
    flags = ["--binding", "grpc"]
    _, mock = await check_agrees_with_replay(session, mocks, capsys, flags, APPENDIX_B_ARGUMENTS)
    assert (mock.companion_address is not None) == any(ex.grpc for ex in run.exchanges)
