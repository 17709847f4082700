"""Attacks on the terminal: control sequences in every text the agent controls.
Each one ends the run somewhere else, so that every kind of message (card
warnings, a task state, an agent error, located findings, headers) carries the payload."""

from __future__ import annotations

from typing import Any

from tests.hostile.honest import SKILL, Honest, agent_message, artifact, task
from tests.hostile.registry import Attack, attack, register
from tests.hostile.server import Reply, Request

#: OSC 52 writes the clipboard, OSC 0 the window title, CSI 2J clears the screen, U+009B
#: is a one-character CSI and U+009D an OSC, U+202E reverses what follows, U+2028 breaks a
#: line, CR and BS overwrite what was printed, U+FEFF and U+E000 hide.
INJECT = (
    "\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[2J\x9b31m\x9d0;t\x9c"
    "\u202e\u2028\r\x08\x00\x7f\ufeff\ue000\U000e0041"
)
#: The same for an HTTP header (latin-1 on the wire: C1 bytes only, no ESC or CR).
INJECT_HEADER = "x\x9b31m\x9d0;title\x9c\x85y"


def _card(card: dict[str, Any]) -> None:
    card["name"] = "Evil" + INJECT
    card["description"] = INJECT
    card["version"] = "1.0" + INJECT
    card["provider"] = {"organization": INJECT, "url": "http://x/" + INJECT}
    card["skills"].append({"id": "other" + INJECT, "name": INJECT, "description": INJECT})
    # Each interface without a url is a card warning that quotes what it has.
    card["supportedInterfaces"].append({"protocolBinding": INJECT, "protocolVersion": INJECT})


def _document(document: dict[str, Any]) -> None:
    document["authority"]["note"] = INJECT
    # The result's own schema names an enum of injected values, so findings quote them.
    document["output_schema"]["schema_uri"] = "https://example.net/" + INJECT


register(
    Attack(
        "inject-text",
        "control sequences in the card, the document and a result that does not validate",
        edit_card=_card,
        edit_document=_document,
        result=lambda: {"result": INJECT, INJECT: INJECT},
    )
)


@attack(
    "inject-state",
    "a task state made of control sequences, and a status message of them",
    stage="invoke",
    edit_card=_card,
)
async def _state(request: Request, reply: Reply, honest: Honest) -> None:
    answer = task("TASK_STATE_" + INJECT, artifacts=[artifact(INJECT, {"result": INJECT})])
    answer["status"]["message"] = agent_message(INJECT, message_id=INJECT)
    await reply.rpc(request, {"task": answer})


@attack(
    "inject-error",
    "a JSON-RPC error whose message and details are control sequences",
    stage="invoke",
    edit_card=_card,
)
async def _error(request: Request, reply: Reply, honest: Honest) -> None:
    error = {
        "code": -32602,
        "message": INJECT,
        "data": {
            "code": "input_invalid" + INJECT,
            "message": INJECT,
            "details": [{"pointer": "/" + INJECT, "message": INJECT}],
        },
    }
    await reply.json(
        {"jsonrpc": "2.0", "id": request.rpc_id, "error": error},
        headers=[("X-Note", INJECT_HEADER)],
    )


@attack(
    "inject-describe",
    "describe_skill fails with control sequences in its state, status and headers",
    stage="describe",
    edit_card=_card,
)
async def _describe(request: Request, reply: Reply, honest: Honest) -> None:
    answer = task("TASK_STATE_FAILED" + INJECT)
    answer["id"] = "task" + INJECT
    answer["status"]["message"] = agent_message(INJECT)
    envelope = {"jsonrpc": "2.0", "id": request.rpc_id, "result": {"task": answer}}
    await reply.json(envelope, headers=[("Set-Cookie", INJECT_HEADER)])


@attack(
    "inject-card",
    "an Agent Card whose interface URL and advertised digest are control sequences",
    stage="card",
)
async def _broken_card(request: Request, reply: Reply, honest: Honest) -> None:
    card = honest.card()
    card["supportedInterfaces"].insert(0, {"url": INJECT, "protocolBinding": "JSONRPC"})
    advertised = card["capabilities"]["extensions"][0]["params"]["skills"][0]
    advertised["interface_digest"] = "sha256:" + INJECT
    await reply.json(card, status=200, headers=[("X-Note", INJECT_HEADER)])


TERMINAL_ATTACKS = ("inject-text", "inject-state", "inject-error", "inject-describe", "inject-card")
__all__ = ["INJECT", "SKILL", "TERMINAL_ATTACKS"]
