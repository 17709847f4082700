"""`sia-tui check --binding grpc` against a bare grpcio script making the same calls.

Run on demand: ``uv run python benchmarks/check_vs_grpcio.py [ROUNDS] [--from-source]``.
The reference agent serves HTTP and gRPC on 127.0.0.1 in this process; each round runs, as
subprocesses with the same interpreter,

- the candidate: ``sia-tui check URL --skill evaluate_resource_condition --args example
  --binding grpc``;
- the baseline: ``python -c BARE``: the card over httpx, then SendMessage (describe_skill)
  and SendMessage (the invocation) with grpcio, each answer parsed as a message and
  nothing more. Its messages come from the same ``lf.a2a.v1`` file descriptor, added to a
  pool as a generated ``_pb2`` module adds its own (a2a-sdk's ``a2a.types`` would cost its
  0.4 s of imports to the baseline, flattering sia-tui).

Both pay for the interpreter, httpx, grpcio, protobuf and the agent's work; the difference
is what `check` adds (its imports, ProtoJSON, the eleven steps, the report). The goal
(README, Performance) is at most 1.3x. Prints figures and ratios; asserts nothing but
that the check passes. Bytecode as in check_vs_httpx.py.
"""

from __future__ import annotations

import base64
import statistics
import subprocess
import sys
import tempfile
from functools import partial

from check_vs_httpx import GOAL, SKILL, Runner
from cli_startup import SIA_TUI
from pairs import bytecode_environment, interleaved

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent
from sia_tui.core.a2a.grpc import messages as grpc_messages
from sia_tui.core.constants import EXTENSION_URI

BARE = """
import base64, sys, uuid
import grpc, httpx
from google.protobuf import descriptor_pool, message_factory, struct_pb2, timestamp_pb2

base, skill, extension, a2a_file = sys.argv[1:5]
pool = descriptor_pool.DescriptorPool()
for module in (struct_pb2, timestamp_pb2):
    pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
pool.AddSerializedFile(base64.b64decode(a2a_file))
message = lambda name: message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
Request = message("lf.a2a.v1.SendMessageRequest")
Response = message("lf.a2a.v1.SendMessageResponse")
metadata = (("a2a-version", "1.0"), ("a2a-extensions", extension))


def send(channel, data):
    request = Request()
    request.message.message_id, request.message.role = str(uuid.uuid4()), 1
    part = request.message.parts.add()
    part.data.struct_value.update(data)
    part.media_type = "application/json"
    call = channel.unary_unary("/lf.a2a.v1.A2AService/SendMessage")
    return Response.FromString(call(request.SerializeToString(), metadata=metadata, timeout=15))


card = httpx.get(base + "/.well-known/agent-card.json", headers=dict(metadata)).json()
address = next(i["url"] for i in card["supportedInterfaces"] if i["protocolBinding"] == "GRPC")
with grpc.insecure_channel(address) as channel:
    described = send(channel, {"skill": "describe_skill", "arguments": {"skill_id": skill}})
    payload = described.task.artifacts[0].parts[0].data.struct_value
    digest = payload["interface_digest"]
    result = send(channel, {
        "skill": skill, "skill_version": "1.0", "interface_digest": digest,
        "arguments": {
            "resource_id": "network-resource-123",
            "condition": {"metric": "utilization", "operator": "gte", "threshold": 80,
                          "unit": "percent"},
        },
    })
    assert result.task.status.state == 3, result  # TASK_STATE_COMPLETED
"""


def _a2a_file() -> str:
    """The ``lf.a2a.v1`` file descriptor sia-tui uses, as a generated module embeds it."""
    return base64.b64encode(
        grpc_messages.POOL.FindFileByName("sia_tui/a2a_v1.proto").serialized_pb
    ).decode()


def main() -> None:
    """Start the agent, check once that `check` passes, then time both in pairs."""
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    rounds = int(numbers[0]) if numbers else 30
    from_source = "--from-source" in sys.argv[1:]
    agent = start_agent(AgentConfig(grpc_port=0), quiet=True)
    try:
        with tempfile.TemporaryDirectory(prefix="sia-pyc-") as pycache:
            run = Runner(bytecode_environment(None if from_source else pycache))
            check = [*SIA_TUI, "check", agent.url, "--skill", SKILL, "--args", "example"]
            check += ["--binding", "grpc"]
            bare = [sys.executable, "-c", BARE, agent.url, SKILL, EXTENSION_URI, _a2a_file()]
            done = subprocess.run(check, env=run.env, capture_output=True, text=True)
            assert done.returncode == 0 and "all eleven steps passed" in done.stdout, done.stdout
            subprocess.run(bare, env=run.env, check=True)
            print("bytecode: " + ("compiled on every run" if from_source else "cached"))
            pairs = interleaved(partial(run, "bare", bare), partial(run, "check", check), rounds)
            print(
                pairs.report("sia-tui check --binding grpc (11 steps)", "bare grpcio script", GOAL)
            )
            print(run.cpu_ratio("check", "bare"))
            floors = {
                "python -c pass": [sys.executable, "-c", "pass"],
                "python -c 'import grpc, httpx'": [sys.executable, "-c", "import grpc, httpx"],
            }
            print("\nthe floor, against the same baseline:")
            for name, argv in floors.items():
                run.cpu.pop("bare")
                floor = interleaved(partial(run, "bare", bare), partial(run, name, argv), rounds)
                print(
                    f"  {name}: median {statistics.median(floor.candidate) * 1000:.1f} ms "
                    f"({statistics.median(floor.ratios):.2f}x the bare script's "
                    f"{statistics.median(floor.baseline) * 1000:.1f} ms)"
                )
    finally:
        agent.stop()


if __name__ == "__main__":
    main()
