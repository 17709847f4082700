"""The card's capabilities respected (A2A 1.0 section 3.1.7): stream asked for on a card
without capabilities.streaming is refused with the reason and the override named, as push
on a card without capabilities.pushNotifications is; the override sends it anyway."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from sia_tui.cli import main
from sia_tui.cli.needs import FLAGS
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.needs import use_wording
from sia_tui.core.run.evidence import FailureCategory
from sia_tui.core.run.read_model import Run, Target
from tests.support.agents import StartAgent
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.scripted_agent import BASE, SKILL, ScriptedAgent, modes_agent, task


def _agent() -> ScriptedAgent:
    """A scripted agent whose document declares sync and stream, and whose card does not
    declare streaming (an agent that under-declares)."""
    return modes_agent(
        ["sync", "stream"],
        streaming=False,
        stream=lambda _r: [{"task": task("TASK_STATE_COMPLETED")}],
    )


async def _run(agent: ScriptedAgent, **target: Any) -> Run:
    procedure = Procedure(
        Target(BASE, skill_id=SKILL, mode="stream", **target),
        ClientOptions(),
        transport=agent.transport(),
    )
    procedure.set_arguments(APPENDIX_B_ARGUMENTS)
    try:
        with use_wording(FLAGS):
            return await procedure.run_all()
    finally:
        await procedure.aclose()


async def test_stream_on_a_card_without_streaming_is_refused_with_the_override_named() -> None:
    agent = _agent()
    run = await _run(agent)
    failed = run.failed_step
    assert failed is not None and failed.step == 8
    assert failed.category is FailureCategory.USAGE
    assert "does not declare capabilities.streaming" in failed.message
    assert "--ignore-capabilities" in failed.message
    assert [r.get("skill") for r in agent.requests] == ["describe_skill"]  # nothing invoked


async def test_the_override_sends_the_stream() -> None:
    agent = _agent()
    run = await _run(agent, ignore_capabilities=True)
    assert run.failed_step is None or run.failed_step.step > 8, run.verdict.summary
    assert run.mode == "stream" and len(agent.requests) == 2


def test_push_to_a_card_that_under_declares_is_sent_only_with_the_override(
    reference_agent: StartAgent, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The agent takes webhooks, its card does not say so: push is left out, with the
    override named; --ignore-capabilities registers it and the deliveries arrive."""
    agent = reference_agent(push="on")
    card = httpx.get(f"{agent.url}/.well-known/agent-card.json").json()
    card["capabilities"]["pushNotifications"] = False
    card_file = tmp_path / "card.json"
    card_file.write_text(json.dumps(card))
    args = tmp_path / "args.json"
    args.write_text(json.dumps(APPENDIX_B_ARGUMENTS))
    check = ["check", str(card_file), "--skill", SKILL, "--args", str(args), "--push", "--json"]
    assert main(check) == 0
    push = json.loads(capsys.readouterr().out)["push"]
    assert "--ignore-capabilities" in push["error"] and push["deliveries"] == []
    assert main([*check, "--ignore-capabilities"]) == 0
    push = json.loads(capsys.readouterr().out)["push"]
    assert push["error"] is None and push["deliveries"]
