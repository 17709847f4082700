"""Step 1 alone loads no module of the later steps: `sia-tui open URL` runs step 1, shows the
card, and waits for the user; what only steps 2-11 run loads when they first run."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.agents import StartAgent

# Step 1 against the agent in a fresh interpreter, then what the first screen reads of
# the run; prints the step's status and every loaded module.
PROBE = """
import asyncio, json, sys
from sia_tui.core.a2a import ClientOptions
from sia_tui.core.engine import Procedure
from sia_tui.core.run import Step, Target

async def step_one():
    engine = Procedure(Target(sys.argv[1]), ClientOptions())
    try:
        await engine.step()
        run = engine.run
        run.verdict.headline, run.answers.input_schema, run.answers.declared_modes
        return run.step(Step.CARD).status.value
    finally:
        await engine.aclose()

status = asyncio.run(step_one())
loaded = sorted(name for name, module in sys.modules.items() if module is not None)
print(json.dumps({"status": status, "modules": loaded}))
"""

#: The skill interface document's checks (steps 2-6) and the JSON canonical form and
#: schema dialect checks they run: the card needs none of them.
LATER_STEPS = (
    "sia_tui.core.interface.document",
    "sia_tui.core.jsonkit.canonical",
    "sia_tui.core.jsonkit.numbers",
    "sia_tui.core.schemas",
)


def test_step_one_loads_no_document_checks(reference_agent: StartAgent) -> None:
    agent = reference_agent()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, agent.url],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "passed"  # the card was fetched and read
    modules: list[str] = result["modules"]
    later = [m for m in modules if any(m == n or m.startswith(n + ".") for n in LATER_STEPS)]
    assert later == []
