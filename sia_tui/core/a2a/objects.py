"""Lenient readers of A2A objects (Task, Message, Part, Artifact, stream events) in both dialects.

1.0 discriminates by member, 0.3 by ``kind``; 0.3 enums are lowercase. The raw dict is kept.
"""

from __future__ import annotations

import re
from typing import Any

from sia_tui.core.a2a.task_views import Artifact, Message, Part, StreamEvent, Task
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.task_state import FINISHED_STATES, TaskState

#: ProtoJSON enum numbers (a2a.proto TaskState), accepted as well as names.
_STATE_NUMBERS = tuple(TaskState)
_STATES_BY_NAME = {state.value: state for state in TaskState}
#: What a task state name may look like (ASCII upper case, digits, underscores; bounded).
_STATE_NAME = re.compile(r"TASK_STATE_[A-Z0-9_]{1,48}")
_ROLES = {"user": "ROLE_USER", "agent": "ROLE_AGENT", 1: "ROLE_USER", 2: "ROLE_AGENT"}


def normalize_state(value: Any) -> str:
    """``completed`` / ``input-required`` / ``TASK_STATE_X`` / 3 -> a ``TaskState`` (a later
    state's well-formed name is kept as it is)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        # An enum number; one outside the enum (or 10**400) names no state.
        number = value if isinstance(value, int) else int(value) if value.is_integer() else -1
        in_enum = 0 <= number < len(_STATE_NUMBERS)
        return _STATE_NUMBERS[number] if in_enum else TaskState.UNSPECIFIED
    if not isinstance(value, str) or value == "unknown":
        return TaskState.UNSPECIFIED
    state = (
        value
        if value.startswith("TASK_STATE_")
        else ("TASK_STATE_" + value.replace("-", "_").upper())
    )
    # A state is a name every surface prints: a later A2A state (TASK_STATE_PAUSED) is kept,
    # anything else (escapes, spaces, a megabyte) is no state at all.
    if not _STATE_NAME.fullmatch(state):
        return TaskState.UNSPECIFIED
    return _STATES_BY_NAME.get(state, state)


def normalize_role(value: Any) -> str:
    """``user`` / ``agent`` / ``ROLE_*`` / 1 / 2 -> ``ROLE_*``."""
    if isinstance(value, str) and value.startswith("ROLE_"):
        return value
    if isinstance(value, str | int) and not isinstance(value, bool) and value in _ROLES:
        return _ROLES[value]
    return "ROLE_UNSPECIFIED"


def _obj(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise A2AProtocolError(f"{what} is not a JSON object")
    return value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def parse_part(raw: Any, *, proto03: bool = False) -> Part:
    """One part; ``proto03`` means the 0.3 REST ProtoJSON form (``{"data": {"data": ...}}``).

    Only the codec knows the form: in 1.0, ``{"data": {"data": 1}}`` is a legitimate value.
    """
    part = _obj(raw, "part")
    media = part.get("mediaType")
    kind = part.get("kind")
    if kind == "file" or (kind is None and isinstance(part.get("file"), dict)):
        file = part.get("file") if isinstance(part.get("file"), dict) else {}
        assert isinstance(file, dict)
        media = file.get("mimeType", media)
        for member, name in (("bytes", "raw"), ("fileWithBytes", "raw")):
            if member in file:
                return Part(name, file[member], _media(media))
        for member in ("uri", "fileWithUri"):
            if member in file:
                return Part("url", file[member], _media(media))
        return Part("unknown", part, _media(media))
    for name in ("data", "text", "raw", "url"):
        if (kind is None or kind == name) and name in part:
            value = part[name]
            if name == "data" and proto03 and isinstance(value, dict) and "data" in value:
                value = value["data"]  # 0.3 ProtoJSON DataPart wraps a Struct
            return Part(name, value, _media(media))
    return Part("unknown", part, _media(media))


def _media(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _parts(container: dict[str, Any], proto03: bool) -> tuple[Part, ...]:
    """Parts of a message/artifact; 0.3 REST messages call them ``content``."""
    content = "parts" not in container and "content" in container
    items = container.get("content" if content else "parts")
    if not isinstance(items, list):
        return ()
    return tuple(parse_part(item, proto03=proto03 or content) for item in items)


def parse_message(raw: Any, *, proto03: bool = False) -> Message:
    """An A2A Message in either dialect (``proto03``: the 0.3 REST ProtoJSON form)."""
    message = _obj(raw, "message")
    return Message(
        message_id=_text(message.get("messageId")),
        role=normalize_role(message.get("role")),
        parts=_parts(message, proto03),
        raw=message,
    )


def parse_artifact(raw: Any, *, proto03: bool = False) -> Artifact:
    """An A2A Artifact in either dialect."""
    artifact = _obj(raw, "artifact")
    name = artifact.get("name")
    return Artifact(
        artifact_id=_text(artifact.get("artifactId")),
        name=name if isinstance(name, str) else None,
        parts=_parts(artifact, proto03),
        raw=artifact,
    )


def _status(raw: Any, proto03: bool) -> tuple[str, Message | None]:
    status = _obj(raw, "task status")
    message = status.get("message")
    return normalize_state(status.get("state")), (
        parse_message(message, proto03=proto03) if isinstance(message, dict) else None
    )


def parse_task(raw: Any, *, proto03: bool = False) -> Task:
    """An A2A Task in either dialect; a missing ``status`` is a protocol error."""
    task = _obj(raw, "task")
    if "status" not in task:
        raise A2AProtocolError("task has no 'status' member")
    state, status_message = _status(task["status"], proto03)
    artifacts = task.get("artifacts")
    artifacts = artifacts if isinstance(artifacts, list) else []
    context = task.get("contextId")
    history = task.get("history")
    history = history if isinstance(history, list) else []
    return Task(
        id=_text(task.get("id")),
        context_id=context if isinstance(context, str) else None,
        state=state,
        status_message=status_message,
        artifacts=tuple(parse_artifact(a, proto03=proto03) for a in artifacts),
        raw=task,
        history=tuple(parse_message(m, proto03=proto03) for m in history if isinstance(m, dict)),
    )


def parse_task_or_message(raw: Any, *, proto03: bool = False) -> Task | Message:
    """A send result: a ``{"task"}``/``{"message"}`` wrapper or a bare object with ``kind``."""
    result = _obj(raw, "result")
    if result.get("kind") == "message" or ("messageId" in result and "status" not in result):
        return parse_message(result, proto03=proto03)
    if result.get("kind") == "task" or "status" in result:
        return parse_task(result, proto03=proto03)
    if "task" in result:
        return parse_task(result["task"], proto03=proto03)
    for key in ("message", "msg"):
        if key in result:
            return parse_message(result[key], proto03=proto03)
    raise A2AProtocolError("result is neither a Task nor a Message")


def _ends(state: str | None) -> bool:
    return state in FINISHED_STATES


def parse_stream_event(raw: Any, *, proto03: bool = False) -> StreamEvent:
    """One streamed payload: 1.0 wrapper keys or 0.3 ``kind``; ``final`` marks the task's end."""
    payload = _obj(raw, "stream event")
    kind = payload.get("kind")
    flagged = payload.get("final") is True
    if kind == "status-update" or "statusUpdate" in payload:
        body = payload if kind else _obj(payload["statusUpdate"], "statusUpdate")
        state, message = _status(body.get("status"), proto03)
        return StreamEvent(
            "status",
            state=state,
            status_message=message,
            final=flagged or body.get("final") is True or _ends(state),
            raw=payload,
        )
    if kind == "artifact-update" or "artifactUpdate" in payload:
        body = payload if kind else _obj(payload["artifactUpdate"], "artifactUpdate")
        return StreamEvent(
            "artifact",
            artifact=parse_artifact(body.get("artifact"), proto03=proto03),
            append=body.get("append") is True,
            last_chunk=body.get("lastChunk") is True,
            final=flagged,
            raw=payload,
        )
    item = parse_task_or_message(payload, proto03=proto03)
    if isinstance(item, Task):
        return StreamEvent(
            "task", task=item, state=item.state, final=flagged or _ends(item.state), raw=payload
        )
    # A lone Message is the whole answer: the stream closes after it (A2A 1.0 section 11.7).
    return StreamEvent("message", message=item, final=True, raw=payload)
