"""Step 1 alone loads no module of the later steps: `sia-tui open URL` runs step 1, shows the
card, and waits for the user; what only steps 2-11 run (and the values only their answers
return) loads when they first run."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from tests.support.agents import StartAgent

# Step 1 against the agent in a fresh interpreter, then what the Overview asks the run
# about after step 1; prints the step's status, every loaded module and which of them
# hold (define or import) one of the names given.
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
        run.verdict.finished, run.verdict.waiting_for_arguments, run.answers.card_signatures
        run.answers.input_schema, run.answers.declared_modes
        return run.step(Step.CARD).status.value
    finally:
        await engine.aclose()

status = asyncio.run(step_one())
loaded = sorted(name for name, module in sys.modules.items() if module is not None)
values = [v for v in sys.argv[2].split(",") if v]
defining = sorted(
    n for n in loaded if n.startswith("sia_tui") and any(v in vars(sys.modules[n]) for v in values)
)
print(json.dumps({"status": status, "modules": loaded, "defining": defining}))
"""

#: The skill interface document's checks (steps 2-6) and the JSON canonical form and
#: schema dialect checks they run: the card needs none of them.
LATER_STEPS = (
    "sia_tui.core.interface.document",
    "sia_tui.core.jsonkit.canonical",
    "sia_tui.core.jsonkit.numbers",
    "sia_tui.core.schemas",
)
#: Steps 2-11's evidence (fourteen dataclasses, about 6 ms to build) and the union of all.
LATER_EVIDENCE = (
    "SkillEvidence",
    "DescribeEvidence",
    "DigestEvidence",
    "DocumentEvidence",
    "SchemaDigest",
    "SchemaEvidence",
    "ArgumentsEvidence",
    "TaskError",
    "DelegationEvidence",
    "ArtifactRef",
    "ReceptionEvidence",
    "RecordSummary",
    "OutputEvidence",
    "PresentationEvidence",
    "StepEvidence",
)
#: The frozen dataclasses some answers return once later steps ran (about 4 ms to build).
ANSWER_VALUES = (
    "OddOneOut",
    "ArtifactVerdict",
    "ExampleArguments",
    "SchemaDigests",
    "Summary",
    "InvocationFailure",
)


def _step_one(reference_agent: StartAgent, names: tuple[str, ...] = ()) -> dict[str, Any]:
    """Step 1 in a fresh interpreter: its status, the loaded modules, and those of them
    that define one of ``names``."""
    agent = reference_agent()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, agent.url, ",".join(names)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "passed"  # the card was fetched and read
    return result


def test_step_one_loads_no_document_checks(reference_agent: StartAgent) -> None:
    modules: list[str] = _step_one(reference_agent)["modules"]
    later = [m for m in modules if any(m == n or m.startswith(n + ".") for n in LATER_STEPS)]
    assert later == []


def test_step_one_builds_none_of_the_answers_values(reference_agent: StartAgent) -> None:
    """No loaded module holds them: the classes are created when an answer returns one."""
    assert _step_one(reference_agent, ANSWER_VALUES)["defining"] == []


def test_step_one_builds_no_evidence_of_the_later_steps(reference_agent: StartAgent) -> None:
    """Step 1 records ``CardEvidence``; steps 2-11's classes are created with step 2."""
    assert _step_one(reference_agent, LATER_EVIDENCE)["defining"] == []
