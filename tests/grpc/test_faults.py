"""Every reference-agent fault behaves the same over gRPC as over HTTP: where check stops
(sync and stream), who is at fault, which probes fail. The 0.3 agent has no gRPC interface
(the 0.3 service is another proto), so step 1 says there is none to call."""

from __future__ import annotations

import pytest

from sia_tui.agent.faults import FAULT_SPECS, Fault, FaultSpec
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.run.evidence import FailureCategory
from sia_tui.core.run.later_evidence import DigestEvidence
from sia_tui.core.run.read_model import Run, StepStatus, Target
from tests.support.agents import StartAgent
from tests.support.appendix_b import run_appendix_b
from tests.support.probe import failing, probe

#: An event of no A2A kind has no protobuf form (a decoder drops unknown fields), so the
#: wire-unknown-event fault exists on the JSON bindings only.
_JSON_ONLY = (Fault.V03, Fault.WIRE_UNKNOWN_EVENT)
OVER_GRPC = [spec for spec in FAULT_SPECS.values() if spec.fault not in _JSON_ONLY]


def _options(fault: Fault) -> ClientOptions:
    """A read timeout shorter than the ``slow`` fault's delay (3 s here)."""
    if fault is Fault.SLOW:
        return ClientOptions(read_timeout=0.5, total_timeout=2.0)
    return ClientOptions()


def assert_stops_as_specified(run: Run, spec: FaultSpec) -> None:
    stop = spec.expected.check
    assert run.interface is not None and run.interface.binding == "GRPC"
    if stop is None:
        assert [s.status for s in run.steps] == [StepStatus.PASSED] * 11, run.verdict.summary
        return
    failed = run.failed_step
    assert failed is not None, run.verdict.summary
    assert (failed.step, failed.code, failed.origin) == (stop.step, stop.code, stop.origin)
    if stop.code is None:
        assert failed.category is FailureCategory.TRANSPORT
    blame = run.verdict.at_fault
    assert blame is not None and blame.statement.startswith(spec.expected.at_fault), blame
    assert all(s.status is StepStatus.SKIPPED for s in run.steps[stop.step :])


@pytest.mark.parametrize("spec", OVER_GRPC, ids=[str(s.fault) for s in OVER_GRPC])
async def test_each_fault_over_grpc_as_specified(
    reference_agent: StartAgent, spec: FaultSpec
) -> None:
    """The FaultSpec table, over gRPC: check's stop and blame, and the probes that fail."""
    agent = reference_agent(fault=spec.fault, step_delay=0.02, slow_seconds=3.0, grpc_port=0)
    report = await probe(agent.url, options=_options(spec.fault), binding="grpc")
    assert_stops_as_specified(report.learning, spec)
    if spec.expected.check is None:
        assert failing(report) == set(spec.expected.probe_fails)
    sent = [ex for ex in report.learning.exchanges if ex.method != "GET"]
    assert all(ex.grpc for ex in sent)  # nothing but the card went over HTTP


async def _stream_run(url: str, binding: str, fault: Fault) -> Run:
    return await run_appendix_b(
        Target(url, "evaluate_resource_condition", binding=binding, mode="stream"),
        _options(fault),
    )


def _verdict(run: Run) -> tuple[object, ...]:
    """Outcome, step, code, origin and category (the error's kind names the binding's
    own format: a body that is not JSON, a message that is not protobuf)."""
    failed = run.failed_step
    if failed is None:
        return (run.verdict.outcome,)
    return (run.verdict.outcome, failed.step, failed.code, failed.origin, failed.category)


@pytest.mark.parametrize("spec", OVER_GRPC, ids=[str(s.fault) for s in OVER_GRPC])
async def test_each_fault_streams_over_grpc_as_over_json_rpc(
    reference_agent: StartAgent, spec: FaultSpec
) -> None:
    """Streaming (SendStreamingMessage), each fault stops where it stops over JSON-RPC
    (a 5 MB artifact is one event: over the event limit on both bindings)."""
    agent = reference_agent(fault=spec.fault, step_delay=0.02, slow_seconds=3.0, grpc_port=0)
    over_grpc = await _stream_run(agent.url, "grpc", spec.fault)
    over_http = await _stream_run(agent.url, "jsonrpc", spec.fault)
    assert _verdict(over_grpc) == _verdict(over_http), over_grpc.verdict.summary
    if over_grpc.steps[7].status is StepStatus.PASSED:
        assert over_grpc.mode == "stream"
        assert any(ex.url.endswith("/SendStreamingMessage") for ex in over_grpc.exchanges)


async def test_the_0_3_agent_has_no_grpc_interface_to_call(reference_agent: StartAgent) -> None:
    agent = reference_agent(fault=Fault.V03, grpc_port=0)
    report = await probe(agent.url, binding="grpc")
    failed = report.learning.failed_step
    assert failed is not None and failed.step == 1
    assert "no callable grpc interface" in failed.message


@pytest.mark.parametrize(
    ("binding", "arrived"),
    [
        ("jsonrpc", "exact digits of the integer 18446744073709551615 at"),
        ("grpc", "arrived as 18446744073709552000"),
    ],
)
async def test_bigint_digest_forensics_say_what_happened_in_transit(
    reference_agent: StartAgent, binding: str, arrived: str
) -> None:
    """A Counter64 bound hashed in exact digits: JSON-RPC carries the digits (which RFC 8785
    cannot write), gRPC's double rounds them; either way step 4 names the pointer."""
    agent = reference_agent(fault=Fault.BIGINT_DIGEST, grpc_port=0)
    procedure = Procedure(
        Target(agent.url, "evaluate_resource_condition", binding=binding), ClientOptions()
    )
    try:
        run = await procedure.run_all()
    finally:
        await procedure.aclose()
    evidence = run.evidence(DigestEvidence)
    assert evidence is not None and evidence.forensics is not None
    pointer = "/input_schema/resolution/schema/properties/condition/properties/threshold/maximum"
    assert arrived in evidence.forensics and pointer in evidence.forensics
    warned = [f.pointer for f in run.steps[3].findings if f.severity == "warning"]
    assert warned == [pointer]
    failed = run.failed_step
    assert failed is not None and (failed.step, failed.code) == (4, "interface_invalid")
