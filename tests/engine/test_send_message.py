"""`sia-tui send` against an agent that answers with a bare Message (no task), without the
schema-interface extension: the answer as the user reads it, saved, and replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.engine.console import ConsoleRequest, PartKind
from sia_tui.core.engine.plain_send import send_plain
from sia_tui.core.engine.procedure import Procedure
from sia_tui.core.engine.report_plain import plain_exit_code, plain_to_json, render_plain
from sia_tui.core.run.read_model import Target
from sia_tui.core.session.replay import replay_session
from sia_tui.core.session.store import load_session, save_session
from tests.support.agents import StartAgent

BASE = "http://agent.test"
#: The agent's text: markup and a terminal escape, which must reach the user literally.
REPLY = "pong [bold]x[/] \x1b]52;c;ZXZpbA==\x07"


def _card(streaming: bool = True) -> dict[str, Any]:
    return {
        "name": "Messenger",
        "description": "answers with messages",
        "version": "1",
        "supportedInterfaces": [
            {"url": f"{BASE}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": streaming},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "chat", "name": "chat", "description": "d", "tags": []}],
    }


def _agent(request: httpx.Request) -> httpx.Response:
    if request.url.path.startswith("/.well-known/"):
        return httpx.Response(200, json=_card())
    envelope = json.loads(request.content)
    message = {
        "messageId": "m-1",
        "role": "ROLE_AGENT",
        "parts": [{"text": REPLY}, {"data": {"n": 1}}],
    }
    return httpx.Response(
        200, json={"jsonrpc": "2.0", "id": envelope["id"], "result": {"message": message}}
    )


async def _send(text: str = "ping") -> Any:
    procedure = Procedure(Target(BASE), ClientOptions(), transport=httpx.MockTransport(_agent))
    try:
        return await send_plain(procedure, ConsoleRequest(PartKind.TEXT, text, skill_id="chat"))
    finally:
        await procedure.aclose()


async def test_a_bare_message_is_shown_with_its_id_role_and_parts() -> None:
    run = await _send()
    assert plain_exit_code(run) == 0
    text = render_plain(run)
    assert "answer: Message m-1 ROLE_AGENT" in text
    # Literal: the markup as typed, the escape made visible, never sent to the terminal.
    assert "text: pong [bold]x[/] ␛]52;c;ZXZpbA==" in text and "\x1b" not in text
    assert 'data: {"n": 1}' in text
    report = plain_to_json(run)
    assert report["answer"] == "message" and report["task"] is None
    assert report["message"]["message_id"] == "m-1"
    assert report["message"]["parts"][0] == {"kind": "text", "value": REPLY, "media_type": None}


async def test_a_saved_bare_message_replays_to_the_same_answer(tmp_path: Path) -> None:
    run = await _send()
    path = tmp_path / "message.json"
    save_session(run, ClientOptions(), path)
    session = load_session(path)
    assert session.run.plain is not None and session.run.plain.message is not None
    assert render_plain(session.run) == render_plain(run)
    replay = await replay_session(session)
    assert replay.same, replay.results[0].changes
    (result,) = replay.results
    assert result.run.plain is not None and result.run.plain.message is not None
    assert result.unmatched == []


async def test_the_console_holds_another_bound_skill_that_may_act(
    reference_agent: StartAgent,
) -> None:
    """RULES SID5 at the one gate every surface reaches (``Procedure.console``): the run's
    own skill only observes, but the message names apply_interface_shutdown, whose document
    this run has not read: it waits for the user's yes, and a yes sends it."""
    agent = reference_agent()
    procedure = Procedure(
        Target(agent.url, skill_id="evaluate_resource_condition"), ClientOptions()
    )
    request = ConsoleRequest(PartKind.TEXT, "shut it", "sync", "apply_interface_shutdown")
    try:
        await procedure.run_all()
        held = await procedure.console(request)
        assert held.exchanges == [] and held.consent_reason and "not sent" in held.held
        sent = await procedure.console(request, consent=True)
    finally:
        await procedure.aclose()
    assert not sent.held and sent.task is not None
