"""The JSON the agent puts on the wire: 1.0 shapes, their 0.3 translation, A2A errors."""

from __future__ import annotations

from typing import Any

from sia_tui.agent.config import MARKUP_SAMPLE, AgentConfig
from sia_tui.agent.documents import FAULTED_SKILL, FrozenDocument, corrupt
from sia_tui.agent.faults import Fault
from sia_tui.core.constants import DESCRIBE_SKILL, EXTENSION_URI, INTERFACE_VERSION

JSON_MODES = ["application/json"]


def _card_skills(config: AgentConfig, documents: dict[str, FrozenDocument]) -> list[Any]:
    skills: list[dict[str, Any]] = []
    if not config.has(Fault.NO_DESCRIBE):
        skills.append(
            {
                "id": DESCRIBE_SKILL,
                "name": "Describe skill",
                "description": "Returns the Skill Interface Document of a skill.",
                "tags": ["schema-interface"],
                "inputModes": JSON_MODES,
                "outputModes": JSON_MODES,
            }
        )
    for frozen in documents.values():
        spec = frozen.spec
        skills.append(
            {
                "id": spec.skill_id,
                "name": spec.name,
                "description": spec.description,
                "tags": list(spec.tags),
                "inputModes": JSON_MODES,
                "outputModes": JSON_MODES,
            }
        )
    if config.has(Fault.MARKUP):
        for skill in skills:
            skill["name"] = f"{skill['name']} {MARKUP_SAMPLE}"
            skill["description"] = f"{MARKUP_SAMPLE} {skill['description']}"
    return skills


def extension(config: AgentConfig, documents: dict[str, FrozenDocument]) -> dict[str, Any]:
    """The schema-interface advertisement, one binding per domain skill (RULES ADV1, ADV3)."""
    bindings = []
    for frozen in documents.values():
        digest = frozen.interface_digest
        if config.has(Fault.DIGEST_CARD) and frozen.skill_id == FAULTED_SKILL:
            digest = corrupt(digest)
        bindings.append(
            {
                "skill_id": frozen.skill_id,
                "skill_version": frozen.skill_version,
                "interface_digest": digest,
            }
        )
    return {
        "uri": EXTENSION_URI,
        "description": "Schema interfaces for agent skills",
        "required": False,
        "params": {"interface_version": INTERFACE_VERSION, "skills": bindings},
    }


def agent_card(
    config: AgentConfig,
    documents: dict[str, FrozenDocument],
    base: str,
    grpc_address: str | None = None,
) -> dict[str, Any]:
    """The Agent Card for ``base`` (scheme://host:port as the client reached us); the
    gRPC interface, at ``grpc_address`` (host:port), comes last: clients that choose the
    first callable interface keep JSON-RPC."""
    card: dict[str, Any] = {
        "name": "sia-tui reference agent",
        "description": "A schema-interface reference agent"
        + (f" with fault '{config.fault}'" if config.fault else "")
        + ".",
        "version": "0.1.0",
    }
    capabilities = {
        "streaming": True,
        "pushNotifications": config.push != "off",
        "extensions": [extension(config, documents)],
    }
    if config.has(Fault.V03):
        card.update(
            {
                "url": f"{base}/a2a/jsonrpc",
                "preferredTransport": "JSONRPC",
                "protocolVersion": "0.3.0",
            }
        )
    else:
        interfaces = []
        if config.serves_jsonrpc:
            interfaces.append(
                {
                    "url": f"{base}/a2a/jsonrpc",
                    "protocolBinding": "JSONRPC",
                    "protocolVersion": "1.0",
                }
            )
        if config.serves_rest:
            interfaces.append(
                {
                    "url": f"{base}/a2a/rest",
                    "protocolBinding": "HTTP+JSON",
                    "protocolVersion": "1.0",
                }
            )
        if grpc_address is not None:
            interfaces.append(
                {"url": grpc_address, "protocolBinding": "GRPC", "protocolVersion": "1.0"}
            )
        card["supportedInterfaces"] = interfaces
    card.update(
        {
            "capabilities": capabilities,
            "defaultInputModes": JSON_MODES,
            "defaultOutputModes": JSON_MODES,
            "skills": _card_skills(config, documents),
        }
    )
    if config.has(Fault.WIRE_MISSING_MEMBER):
        del card["defaultOutputModes"]
    if config.oauth2:
        from sia_tui.agent.oauth2 import card_security

        card.update(card_security(base))
        capabilities["extendedAgentCard"] = True
    return card


# --- 0.3 translation (A2A-NOTES §4) ---------------------------------------------------------


def with_v03_states(value: Any) -> Any:
    """A copy of an answer whose every 1.0 ``state`` is spelt the 0.3 way (the
    ``wire-v03-state`` fault); only what the agent itself built is walked."""
    if isinstance(value, dict):
        return {
            key: v03_state(item)
            if key == "state" and isinstance(item, str) and item.startswith("TASK_STATE_")
            else with_v03_states(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [with_v03_states(item) for item in value]
    return value


#: The first event of every stream under the ``wire-unknown-event`` fault: no A2A kind.
UNKNOWN_EVENT = {"progressUpdate": {"percent": 50}}


def v03_state(state: str) -> str:
    """``TASK_STATE_INPUT_REQUIRED`` -> ``input-required``."""
    return state.removeprefix("TASK_STATE_").lower().replace("_", "-")


def _v03_part(part: Any) -> Any:
    if not isinstance(part, dict):
        return part
    for kind in ("data", "text"):
        if kind in part:
            return {"kind": kind, kind: part[kind]}
    return part


def v03_message(message: dict[str, Any]) -> dict[str, Any]:
    """A 1.0 Message in 0.3 form."""
    out = dict(message, kind="message")
    role = out.get("role")
    if isinstance(role, str):
        out["role"] = role.removeprefix("ROLE_").lower()
    parts = out.get("parts")
    if isinstance(parts, list):
        out["parts"] = [_v03_part(p) for p in parts]
    return out


def _v03_status(status: dict[str, Any]) -> dict[str, Any]:
    out = dict(status, state=v03_state(status["state"]))
    if "message" in out:
        out["message"] = v03_message(out["message"])
    return out


def _v03_artifact(artifact: dict[str, Any]) -> dict[str, Any]:
    return dict(artifact, parts=[_v03_part(p) for p in artifact["parts"]])


def v03_task(task: dict[str, Any]) -> dict[str, Any]:
    """A 1.0 Task in 0.3 form (bare object with ``kind``)."""
    out = dict(task, kind="task", status=_v03_status(task["status"]))
    if "artifacts" in out:
        out["artifacts"] = [_v03_artifact(a) for a in out["artifacts"]]
    out["history"] = [v03_message(m) for m in task.get("history", []) if isinstance(m, dict)]
    return out


def v03_event(event: dict[str, Any], final: bool) -> dict[str, Any]:
    """A 1.0 stream payload in 0.3 form; the last one carries ``final: true``."""
    if "task" in event:
        return v03_task(event["task"])
    if "statusUpdate" in event:
        update = event["statusUpdate"]
        return dict(update, kind="status-update", status=_v03_status(update["status"]), final=final)
    update = event["artifactUpdate"]
    return dict(
        update, kind="artifact-update", artifact=_v03_artifact(update["artifact"]), append=False
    )
