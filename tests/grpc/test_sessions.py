"""A gRPC run saved, loaded, replayed without a network, rerun live and reported: redacted
like HTTP (metadata is headers to the redactor), message sizes kept, a grpcurl command."""

from __future__ import annotations

import json
from pathlib import Path

from sia_tui.agent.faults import Fault
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.bugreport.report_markdown import render_markdown
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.read_model import Run, StepStatus, Target
from sia_tui.core.session import load_session, rerun_session, save_session
from sia_tui.core.session.replay import replay_session
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS

BEARER = "canary-grpc-bearer-6c1d"
ECHOED = "canary-grpc-arg-93ab"


async def record(url: str, options: ClientOptions, mode: str | None = None) -> Run:
    procedure = Procedure(
        Target(url, "evaluate_resource_condition", binding="grpc", mode=mode), options
    )
    procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    try:
        return await procedure.run_all()
    finally:
        await procedure.aclose()


async def test_a_grpc_session_is_redacted_kept_whole_and_replays_offline(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The bearer (sent: cross-origin allowed) is masked in the metadata; the ProtoJSON
    bodies, the statuses and the protobuf sizes survive the file; replay needs no agent."""
    agent = reference_agent(grpc_port=0)
    options = ClientOptions(bearer=BEARER, allow_cross_origin=True)
    run = await record(agent.url, options, mode="stream")
    assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11
    path = tmp_path / "grpc.session.json"
    save_session(run, options, path)
    agent.stop()
    text = path.read_text(encoding="utf-8")
    assert BEARER not in text and "«redacted:authorization»" in text
    loaded = load_session(path)
    sent = [ex for ex in loaded.run.exchanges if ex.grpc]
    assert [ex.url.rsplit("/", 1)[1] for ex in sent] == ["SendMessage", "SendStreamingMessage"]
    assert all(ex.message_sizes for ex in sent) and loaded.manifest_ok
    assert [ex.status for ex in sent] == [0, 0]
    result = await replay_session(loaded)
    assert result.same and result.results[0].unmatched == [], result.results[0].changes
    assert [s.status for s in result.results[0].run.steps] == [StepStatus.PASSED] * 11


async def test_a_grpc_error_replays_as_the_a2a_error_it_was(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    """The recorded status and ErrorInfo are served again: replay reaches the same
    verdict (the bigint-digest fault: step 4 over a rounded double)."""
    agent = reference_agent(fault=Fault.BIGINT_DIGEST, grpc_port=0)
    run = await record(agent.url, ClientOptions())
    assert run.failed_step is not None and run.failed_step.step == 4
    path = tmp_path / "bigint.session.json"
    save_session(run, ClientOptions(), path)
    agent.stop()
    result = await replay_session(load_session(path))
    assert result.same, result.results[0].changes
    assert result.results[0].run.digests.computed == run.digests.computed  # the same doubles


async def test_rerun_compares_grpc_answers_and_report_gives_a_grpcurl_command(
    reference_agent: StartAgent, tmp_path: Path
) -> None:
    agent = reference_agent(fault=Fault.MISMATCH, grpc_port=0)
    run = await record(agent.url, ClientOptions())
    assert run.failed_step is not None and run.failed_step.step == 8
    path = tmp_path / "mismatch.session.json"
    save_session(run, ClientOptions(), path)
    session = load_session(path)
    again = await rerun_session(session)
    assert again.results[0].still_reproduces and again.results[0].run.interface is not None
    assert again.results[0].run.interface.binding == "GRPC"
    markdown = render_markdown(session, path.name)
    assert "answered gRPC OK (0)" in markdown
    assert "The same request with grpcurl:" in markdown
    assert "grpcurl -plaintext" in markdown and "lf.a2a.v1.A2AService/SendMessage" in markdown
    body = json.loads(session.run.exchanges[-1].request_body)
    assert body["message"]["parts"][0]["data"]["skill"] == "evaluate_resource_condition"
