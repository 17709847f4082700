"""`sia-tui check` (3 exchanges, 11 steps) against a bare httpx script making the same exchanges.

Run on demand: ``uv run python benchmarks/check_vs_httpx.py [ROUNDS] [--from-source]``. The
reference agent serves on 127.0.0.1 in this process; each round runs, as subprocesses with
the same interpreter,

- the candidate: ``sia-tui check URL --skill evaluate_resource_condition --args example``;
- the baseline: ``python -c BARE``, which imports httpx and makes the same three exchanges
  with the same headers and bodies (card GET, describe_skill POST, the invocation POST),
  parsing each JSON reply and nothing more.

Both pay for the interpreter, ``import httpx`` and the agent's work; the difference is what
`check` adds (its imports, the eleven steps and the report). The goal (README, Performance) is
at most 1.3x. Prints figures and ratios, asserts nothing but that the check passes.

Bytecode: an installed tool runs from cached bytecode, so by default both sides write and
read it under a temporary ``PYTHONPYCACHEPREFIX`` (warmed before timing). With
``--from-source`` both compile every module on every run instead
(``PYTHONDONTWRITEBYTECODE=1``, as in an environment that sets it): compilation then
dominates, and the figures grow for both sides.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
from functools import partial

from cli_startup import SIA_TUI
from pairs import bytecode_environment, interleaved

from sia_tui.agent.config import AgentConfig
from sia_tui.agent.serving import start_agent
from sia_tui.core.constants import EXTENSION_URI

GOAL = 1.3
SKILL = "evaluate_resource_condition"

# The same exchanges `check` makes against the reference agent, byte for byte in the bodies
# but for the message ids: a client that knows what to send and trusts what it receives.
BARE = """
import sys
import httpx

base, skill, extension = sys.argv[1:4]
headers = {"A2A-Version": "1.0", "A2A-Extensions": extension}


def send(rpc_id, message_id, data):
    return {
        "jsonrpc": "2.0", "id": rpc_id, "method": "SendMessage",
        "params": {"message": {
            "messageId": message_id, "role": "ROLE_USER",
            "parts": [{"data": data, "mediaType": "application/json"}],
        }},
    }


with httpx.Client(headers=headers) as client:
    card = client.get(base + "/.well-known/agent-card.json").json()
    endpoint = card["supportedInterfaces"][0]["url"]
    described = client.post(endpoint, json=send(1, "m-1", {
        "skill": "describe_skill", "arguments": {"skill_id": skill},
    })).json()
    digest = described["result"]["task"]["artifacts"][0]["parts"][0]["data"]["interface_digest"]
    result = client.post(endpoint, json=send(2, "m-2", {
        "skill": skill, "skill_version": "1.0", "interface_digest": digest,
        "arguments": {
            "resource_id": "network-resource-123",
            "condition": {"metric": "utilization", "operator": "gte", "threshold": 80,
                          "unit": "percent"},
        },
    })).json()
    assert result["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED", result
"""


# What `sia-tui` does at start-up (sia_tui/cli/__init__.py), for the floor's last line.
SKIP_HTTPX_CLI = 'import sys; sys.modules.setdefault("httpx._main", None)\n'


class Runner:
    """Runs commands to the end (output discarded; a failure stops the benchmark) and
    keeps each one's CPU seconds (user + system), which load on the machine skews less."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.cpu: dict[str, list[float]] = {}

    def __call__(self, name: str, argv: list[str]) -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        self.cpu.setdefault(name, []).append(used)

    def cpu_ratio(self, name: str, baseline: str) -> str:
        """Median CPU seconds of both and the median of their per-pair ratios."""
        ours, theirs = self.cpu[name][-len(self.cpu[baseline]) :], self.cpu[baseline]
        ratios = [c / b for c, b in zip(ours, theirs, strict=False) if b > 0]
        return (
            f"CPU time: median {statistics.median(ours) * 1000:.1f} ms vs "
            f"{statistics.median(theirs) * 1000:.1f} ms, ratio {statistics.median(ratios):.2f}x"
        )


def main() -> None:
    """Start the agent, check once that `check` passes, then time both in pairs.

    Then the floor, each against the same baseline: the interpreter alone, ``import
    httpx``, and the bare script with httpx's own CLI skipped as `sia-tui` skips it.
    """
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    rounds = int(numbers[0]) if numbers else 30
    from_source = "--from-source" in sys.argv[1:]
    agent = start_agent(AgentConfig(), quiet=True)
    try:
        with tempfile.TemporaryDirectory(prefix="sia-pyc-") as pycache:
            run = Runner(bytecode_environment(None if from_source else pycache))
            check = [*SIA_TUI, "check", agent.url, "--skill", SKILL, "--args", "example"]
            bare = [sys.executable, "-c", BARE, agent.url, SKILL, EXTENSION_URI]
            done = subprocess.run(check, env=run.env, capture_output=True, text=True)
            assert done.returncode == 0 and "all eleven steps passed" in done.stdout, done.stdout
            print("bytecode: " + ("compiled on every run" if from_source else "cached"))
            pairs = interleaved(partial(run, "bare", bare), partial(run, "check", check), rounds)
            print(pairs.report("sia-tui check (3 exchanges, 11 steps)", "bare httpx script", GOAL))
            print(run.cpu_ratio("check", "bare"))
            floors = {
                "python -c pass": [sys.executable, "-c", "pass"],
                "python -c 'import httpx'": [sys.executable, "-c", "import httpx"],
                "bare script, httpx CLI skipped": [
                    sys.executable, "-c", SKIP_HTTPX_CLI + BARE, agent.url, SKILL, EXTENSION_URI
                ],
            }  # fmt: skip
            print("\nthe floor, against the same baseline:")
            for name, argv in floors.items():
                run.cpu.pop("bare")
                floor = interleaved(partial(run, "bare", bare), partial(run, name, argv), rounds)
                ratio = statistics.median(floor.ratios)
                print(
                    f"  {name}: median {statistics.median(floor.candidate) * 1000:.1f} ms "
                    f"({ratio:.2f}x the bare script's "
                    f"{statistics.median(floor.baseline) * 1000:.1f} ms)"
                )
    finally:
        agent.stop()


if __name__ == "__main__":
    main()
