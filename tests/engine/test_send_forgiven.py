"""What a 1.0 answer or card is forgiven is said, located (docs/WIRE.md lists each): a
0.3-style file part, a fileUrl part, history messages without messageId, a card without
defaultInputModes/defaultOutputModes. The Task's history stays in the model."""

from __future__ import annotations

import json
from typing import Any

import httpx

from sia_tui.core.a2a.card import parse_card
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.console import ConsoleRequest, PartKind
from sia_tui.core.engine.plain_send import send_plain
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_plain import plain_to_json, render_plain
from sia_tui.core.engine.report_text import render_text
from sia_tui.core.run.read_model import Step, StepStatus, Target
from tests.support.appendix_b import run_appendix_b
from tests.support.scripted_agent import BASE as SCRIPTED
from tests.support.scripted_agent import SKILL, ScriptedAgent, task

BASE = "http://agent.test"
CARD: dict[str, Any] = {
    "name": "Old habits",
    "description": "d",
    "version": "1",
    "supportedInterfaces": [
        {"url": f"{BASE}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "capabilities": {"streaming": True},
    "skills": [{"id": "chat", "name": "chat", "description": "d", "tags": []}],
}
TASK: dict[str, Any] = {
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "TASK_STATE_COMPLETED"},
    "artifacts": [
        {
            "artifactId": "a-1",
            "parts": [
                {"file": {"bytes": "aGk=", "mimeType": "text/plain"}},
                {"fileUrl": "http://elsewhere.test/x"},
            ],
        }
    ],
    "history": [
        {"role": "ROLE_USER", "parts": [{"text": "hi"}]},
        {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "hello"}]},
    ],
}


def _agent(request: httpx.Request) -> httpx.Response:
    if request.url.path.startswith("/.well-known/"):
        return httpx.Response(200, json=CARD)
    rid = json.loads(request.content)["id"]
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": rid, "result": {"task": TASK}})


async def test_each_forgiveness_of_a_1_0_answer_is_a_located_warning() -> None:
    procedure = Procedure(Target(BASE), ClientOptions(), transport=httpx.MockTransport(_agent))
    try:
        run = await send_plain(procedure, ConsoleRequest(PartKind.TEXT, "hi"))
    finally:
        await procedure.aclose()
    text = render_plain(run)
    assert (
        "warning: in the Task answered, at /artifacts/0/parts/0/file: a 0.3-style file part" in text
    )
    assert "at /artifacts/0/parts/1/fileUrl: a 'fileUrl' part, read as kind unknown" in text
    assert "at /history/0: a history message without 'messageId'" in text
    assert "A2A 1.0 requires a messageId on every Message" in text
    assert "warning: at /defaultInputModes: the card has no 'defaultInputModes'" in text
    assert "at /defaultOutputModes: the card has no 'defaultOutputModes'" in text
    # The history is kept: a report shows it.
    history = plain_to_json(run)["task"]["history"]
    assert [m["message_id"] for m in history] == ["", "m-2"]
    assert "history: 2 messages" in text


def test_a_card_with_its_default_modes_has_no_such_warning() -> None:
    card = {**CARD, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"]}
    assert not [w for w in parse_card(card).warnings if "default" in w]


async def test_check_warns_of_a_history_message_without_message_id() -> None:
    """The same warning in `check`'s report: step 9 reads the Task the agent answered."""
    answer = {
        **task("TASK_STATE_COMPLETED"),
        "history": [{"role": "ROLE_USER", "parts": [{"data": {"x": 1}}]}],
    }
    agent = ScriptedAgent(invoke=lambda _r: answer)
    run = await run_appendix_b(
        Target(SCRIPTED, skill_id=SKILL), ClientOptions(), transport=agent.transport()
    )
    assert run.step(Step.RECEPTION).status is StepStatus.PASSED
    text = render_text(run)
    assert (
        "warning: in the Task answered, at /history/0: a history message without 'messageId'"
        in text
    )
