"""What the hostile agent says when an attack leaves a stage alone: correct A2A 1.0.

The card advertises one skill whose Skill Interface Document declares every response mode,
cancellation, and a huge ``max_duration_seconds`` (the overall deadline must hold anyway).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.jsonkit.canonical import digest_of
from tests.hostile.server import Reply, Request
from tests.support.appendix_b import APPENDIX_B_ARGUMENTS
from tests.support.documents import make_document

SKILL = "evaluate_resource_condition"
#: Arguments valid against the document's input schema (the draft's Appendix B).
ARGUMENTS = APPENDIX_B_ARGUMENTS
RESULT = {"result": "condition_met"}
TASK_ID, CONTEXT_ID = "task-h1", "ctx-h1"


def base_document() -> dict[str, Any]:
    """The skill's document: all three modes, cancellable, a declared duration of 10^9 s."""
    document = make_document()
    document["interaction"] = {"response_modes": ["sync", "stream", "poll"], "cancellable": True}
    document["constraints"] = {"max_duration_seconds": 10**9}
    return document


def task(state: str, *, artifacts: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": TASK_ID, "contextId": CONTEXT_ID, "status": {"state": state}}
    if artifacts is not None:
        out["artifacts"] = artifacts
    return out


def artifact(name: str, data: Any, artifact_id: str = "a1") -> dict[str, Any]:
    return {"artifactId": artifact_id, "name": name, "parts": [{"data": data}]}


def agent_message(text: str, message_id: str = "m") -> dict[str, Any]:
    """A status message from the agent with one text part."""
    return {"role": "ROLE_AGENT", "messageId": message_id, "parts": [{"text": text}]}


def status_update(state: str) -> dict[str, Any]:
    """A StreamResponse carrying a TaskStatusUpdateEvent."""
    return {
        "statusUpdate": {"taskId": TASK_ID, "contextId": CONTEXT_ID, "status": {"state": state}}
    }


def sse(request: Request, result: Any) -> bytes:
    """One SSE event carrying a JSON-RPC result."""
    envelope = {"jsonrpc": "2.0", "id": request.rpc_id, "result": result}
    return b"data: " + json.dumps(envelope).encode() + b"\r\n\r\n"


class Honest:
    """The correct agent; attacks edit its document/card or replace whole stages."""

    def __init__(
        self,
        base: str,
        *,
        edit_document: Callable[[dict[str, Any]], None] | None = None,
        edit_card: Callable[[dict[str, Any]], None] | None = None,
        result: Callable[[], Any] = lambda: RESULT,
    ) -> None:
        self.base = base
        self.document = base_document()
        if edit_document is not None:
            edit_document(self.document)
        self.digest = digest_of(self.document)
        self._edit_card = edit_card
        self._result = result

    @property
    def rpc_url(self) -> str:
        return self.base + "/a2a/jsonrpc"

    def card(self) -> dict[str, Any]:
        card: dict[str, Any] = {
            "name": "Hostile",
            "description": "An agent that attacks its client",
            "version": "1.0",
            "supportedInterfaces": [
                {"url": self.rpc_url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "capabilities": {
                "streaming": True,
                "extensions": [
                    {
                        "uri": EXTENSION_URI,
                        "required": False,
                        "params": {
                            "interface_version": "1.0",
                            "skills": [
                                {
                                    "skill_id": SKILL,
                                    "skill_version": "1.0",
                                    "interface_digest": self.digest,
                                }
                            ],
                        },
                    }
                ],
            },
            "defaultInputModes": ["application/json"],
            "defaultOutputModes": ["application/json"],
            "skills": [
                {"id": i, "name": i, "description": "d", "tags": []}
                for i in ("describe_skill", SKILL)
            ],
        }
        if self._edit_card is not None:
            self._edit_card(card)
        return card

    def describe_task(self) -> dict[str, Any]:
        payload = {"interface_digest": self.digest, "skill_interface": copy.deepcopy(self.document)}
        return task("TASK_STATE_COMPLETED", artifacts=[artifact("describe_skill", payload, "d1")])

    def completed(self) -> dict[str, Any]:
        return task("TASK_STATE_COMPLETED", artifacts=[artifact(SKILL, self._result())])

    async def answer(self, request: Request, reply: Reply) -> None:
        """The correct answer to any request of the protocol."""
        stage = request.stage
        if stage == "card":
            await reply.json(self.card())
        elif stage == "describe":
            await reply.rpc(request, {"task": self.describe_task()})
        elif stage == "invoke":
            immediate = _return_immediately(request)
            answer = task("TASK_STATE_WORKING") if immediate else self.completed()
            await reply.rpc(request, {"task": answer})
        elif stage == "stream":
            await reply.head(200, [("Content-Type", "text/event-stream")])
            await reply.write(sse(request, {"task": task("TASK_STATE_WORKING")}))
            await reply.write(sse(request, {"task": self.completed()}))
        elif stage in ("get_task", "cancel"):
            state = "TASK_STATE_CANCELED" if stage == "cancel" else None
            await reply.rpc(request, task(state) if state else self.completed())
        else:
            await reply.json({"error": "unknown request"}, status=404)


def _return_immediately(request: Request) -> bool:
    envelope = request.json()
    configuration = envelope.get("params", {}).get("configuration", {})
    return bool(configuration.get("returnImmediately"))
