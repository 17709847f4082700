"""A MockTransport agent whose describe_skill and invocation answers each test scripts."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from sia_tui.agent.catalog import SKILLS_BY_ID
from sia_tui.agent.documents import assemble
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.constants import EXTENSION_URI
from sia_tui.core.engine import Procedure
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.core.run.read_model import Target

BASE = "http://scripted.test"
SKILL = "evaluate_resource_condition"
DOCUMENT = assemble(SKILLS_BY_ID[SKILL], digest_of)
DIGEST = digest_of(DOCUMENT)


def task(
    state: str,
    *,
    artifacts: list[dict[str, Any]] | None = None,
    status_data: list[Any] | None = None,
) -> dict[str, Any]:
    """A 1.0 Task; ``status_data`` become the data parts of the status message."""
    status: dict[str, Any] = {"state": state}
    if status_data is not None:
        status["message"] = {
            "messageId": "m1",
            "role": "ROLE_AGENT",
            "parts": [{"data": d} for d in status_data],
        }
    out: dict[str, Any] = {"id": "task-1", "contextId": "ctx-1", "status": status}
    if artifacts is not None:
        out["artifacts"] = artifacts
    return out


def artifact(artifact_id: str, name: str, *data: Any) -> dict[str, Any]:
    """An artifact with one data part per value."""
    return {"artifactId": artifact_id, "name": name, "parts": [{"data": d} for d in data]}


def describe_task() -> dict[str, Any]:
    """The correct describe_skill answer (RULES DS2)."""
    return task(
        "TASK_STATE_COMPLETED",
        artifacts=[
            artifact(
                "d1", "describe_skill", {"interface_digest": DIGEST, "skill_interface": DOCUMENT}
            )
        ],
    )


#: A correct result and record of evaluate_resource_condition for scripted agents.
RESULT = {
    "result": "condition_not_met",
    "observed_value": 42,
    "unit": "percent",
    "supporting_record_refs": ["observation-7"],
}
RECORD = {
    "record_id": "observation-7",
    "resource_id": "network-resource-123",
    "metric": "utilization",
    "value": 42,
    "unit": "percent",
    "observed_at": "2026-08-11T12:00:01Z",
}


def completed_task(_request: dict[str, Any] | None = None) -> dict[str, Any]:
    """A correct COMPLETED answer with the result and its record (the valid baseline)."""
    return task(
        "TASK_STATE_COMPLETED",
        artifacts=[
            artifact("r1", SKILL, RESULT),
            artifact("observation-7", "resource-observation", RECORD),
        ],
    )


@dataclass
class ScriptedAgent:
    """Answers the card, then describe_skill and invocations with the scripted tasks."""

    describe: Callable[[], dict[str, Any]] = describe_task
    invoke: Callable[[dict[str, Any]], dict[str, Any]] = lambda _req: task("TASK_STATE_COMPLETED")
    #: SSE events (StreamResponse objects) answering SendStreamingMessage.
    stream: Callable[[dict[str, Any]], list[dict[str, Any]]] = lambda _req: []
    #: The task GetTask returns (poll after an early end of stream).
    get_task: Callable[[], dict[str, Any]] = lambda: task("TASK_STATE_COMPLETED")
    #: Whether the card declares the streaming capability.
    streaming: bool = True
    #: Every skill request object the agent received, in order.
    requests: list[dict[str, Any]] = field(default_factory=list)

    def card(self) -> dict[str, Any]:
        skills = [
            {"id": i, "name": i, "description": "d", "tags": []} for i in ("describe_skill", SKILL)
        ]
        return {
            "name": "Scripted",
            "description": "d",
            "version": "1",
            "supportedInterfaces": [
                {"url": f"{BASE}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "capabilities": {
                "streaming": self.streaming,
                "extensions": [
                    {
                        "uri": EXTENSION_URI,
                        "params": {
                            "interface_version": "1.0",
                            "skills": [
                                {
                                    "skill_id": SKILL,
                                    "skill_version": "1.0",
                                    "interface_digest": DIGEST,
                                }
                            ],
                        },
                    }
                ],
            },
            "defaultInputModes": [],
            "defaultOutputModes": [],
            "skills": skills,
        }

    def handle(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/.well-known/"):
            return httpx.Response(200, json=self.card())
        envelope = json.loads(request.content)
        if envelope["method"] == "GetTask":
            return httpx.Response(
                200, json={"jsonrpc": "2.0", "id": envelope["id"], "result": self.get_task()}
            )
        if envelope["method"] not in ("SendMessage", "SendStreamingMessage"):
            error = {"code": -32601, "message": "Method not found"}  # e.g. SubscribeToTask
            reply = {"jsonrpc": "2.0", "id": envelope["id"], "error": error}
            return httpx.Response(200, json=reply)
        data = envelope["params"]["message"]["parts"][0]["data"]
        if envelope["method"] == "SendStreamingMessage":
            self.requests.append(data)
            body = "".join(
                "data: "
                + json.dumps({"jsonrpc": "2.0", "id": envelope["id"], "result": e})
                + "\n\n"
                for e in self.stream(data)
            )
            return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})
        self.requests.append(data)
        answer = self.describe() if data.get("skill") == "describe_skill" else self.invoke(data)
        return httpx.Response(
            200, json={"jsonrpc": "2.0", "id": envelope["id"], "result": {"task": answer}}
        )

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def engine(self, target: Target, options: ClientOptions, on_update: Any) -> Procedure:
        """An app's ``engine_factory``: the steps run against this agent."""
        return Procedure(target, options, transport=self.transport(), on_update=on_update)


def modes_agent(modes: list[str], *, streaming: bool = True, **script: Any) -> ScriptedAgent:
    """A scripted agent whose document declares the response ``modes`` (digests
    recomputed) and whose card declares ``streaming`` or not; ``script``: its answers."""
    document = {**DOCUMENT, "interaction": {"response_modes": modes, "cancellable": False}}
    digest = digest_of(document)
    described = {"interface_digest": digest, "skill_interface": document}
    agent = ScriptedAgent(
        describe=lambda: task(
            "TASK_STATE_COMPLETED", artifacts=[artifact("d1", "describe_skill", described)]
        ),
        streaming=streaming,
        **script,
    )
    card = agent.card()
    card["capabilities"]["extensions"][0]["params"]["skills"][0]["interface_digest"] = digest
    agent.card = lambda: card  # type: ignore[method-assign]
    return agent


#: Record references as a network agent names its observations (each wraps over two or
#: three lines in the Results' links, which need a scroll bar for five).
FIVE_REFS = [
    f"urn:noc:observation:edge-router-{n:02d}/ge-0/0/{n}:utilization:sample" for n in range(1, 6)
]


def citing_five_records() -> ScriptedAgent:
    """An agent whose correct answer cites five records (``FIVE_REFS``) and carries them."""
    agent = ScriptedAgent()
    result = {**RESULT, "supporting_record_refs": FIVE_REFS}
    records = [artifact(r, "resource-observation", {**RECORD, "record_id": r}) for r in FIVE_REFS]
    agent.invoke = lambda _request: task(
        "TASK_STATE_COMPLETED", artifacts=[artifact("r1", SKILL, result), *records]
    )
    return agent
