"""What a plain A2A message brought back (`sia-tui send`), as text and as JSON.

It judges nothing: a Task with its state, status message, artifacts and history, or a
bare Message with its id, role and parts, exactly as the agent sent them. Agent text
passes ``printable`` (terminal escapes and controls made visible) in the text form; the
JSON form keeps the values (the CLI prints it through ``terminal_json``).
"""

from __future__ import annotations

import json
from typing import Any

from sia_tui import __version__
from sia_tui.core.a2a.task_views import Artifact, Message, Part, Task
from sia_tui.core.output.policy import printable
from sia_tui.core.run.evidence import StepStatus
from sia_tui.core.run.plain import PlainMessage
from sia_tui.core.run.read_model import Run, Step
from sia_tui.core.task_state import TaskState

#: Task states a script should not read as a usable answer (exit 1).
_UNUSABLE = frozenset({TaskState.FAILED, TaskState.REJECTED})
#: Characters of a part's value shown in the text form (the JSON form has all of it).
_SHOWN = 2000


def plain_exit_code(run: Run) -> int:
    """0: the agent answered; 1: no usable answer (the card unreadable, a transport or A2A
    error, a task failed or rejected); 3: nothing was sent (a gate held the message)."""
    plain = run.plain
    if plain is None or run.step(Step.CARD).status is not StepStatus.PASSED:
        return 1
    if plain.held:
        return 3
    if plain.error is not None or (run.task is None and plain.message is None):
        return 1
    return 1 if run.task is not None and run.task.state in _UNUSABLE else 0


def plain_to_json(run: Run) -> dict[str, Any]:
    """The ``send --json`` report."""
    plain = run.plain
    assert plain is not None  # a send's run
    iface = run.interface
    return {
        "tool": f"sia-tui {__version__}",
        "exit_code": plain_exit_code(run),
        "target": run.target.location,
        "card_url": run.card_url,
        "agent": run.card.name if run.card else None,
        "binding": iface.binding if iface else None,
        "dialect": iface.dialect if iface else None,
        "interface_url": iface.url if iface else None,
        "request": {
            "part": plain.kind.value,
            "mode": plain.mode,
            "skill": plain.skill_id,
            "task_id": plain.task_id,
            "consent": plain.consent,
            "ignore_capabilities": plain.ignore_capabilities,
        },
        "sent": plain.sent,
        "held": plain.held or None,
        "answer": _answer_kind(run, plain),
        "task": None if run.task is None else task_to_json(run.task),
        "message": None if plain.message is None else message_to_json(plain.message),
        "events": plain.events,
        "error": None
        if plain.error is None
        else {
            "message": plain.error,
            "kind": plain.error_kind,
            "a2a_error": None if run.answers.a2a_error is None else run.answers.a2a_error.to_json(),
        },
        "steps": [
            {"step": s.step, "title": s.title, "status": s.status.value, "message": s.message}
            for s in run.steps
            if s.status is not StepStatus.NOT_RUN
        ],
        "warnings": list(run.warnings),
    }


def _answer_kind(run: Run, plain: PlainMessage) -> str | None:
    if run.task is not None:
        return "task"
    return "message" if plain.message is not None else None


def part_to_json(part: Part) -> dict[str, Any]:
    """One part: its kind (text, data, raw, url, unknown), value and media type."""
    return {"kind": part.kind, "value": part.value, "media_type": part.media_type}


def message_to_json(message: Message) -> dict[str, Any]:
    """A Message: id, role, parts."""
    return {
        "message_id": message.message_id,
        "role": message.role,
        "parts": [part_to_json(p) for p in message.parts],
    }


def _artifact_to_json(artifact: Artifact) -> dict[str, Any]:
    return {
        "artifact_id": artifact.artifact_id,
        "name": artifact.name,
        "parts": [part_to_json(p) for p in artifact.parts],
    }


def task_to_json(task: Task) -> dict[str, Any]:
    """A Task: id, context, state, status message, artifacts, history."""
    return {
        "id": task.id,
        "context_id": task.context_id,
        "state": task.state,
        "status_message": None
        if task.status_message is None
        else message_to_json(task.status_message),
        "artifacts": [_artifact_to_json(a) for a in task.artifacts],
        "history": [message_to_json(m) for m in task.history],
    }


def render_plain(run: Run) -> str:
    """The readable report of a send."""
    plain = run.plain
    assert plain is not None  # a send's run
    agent = run.card.name if run.card else run.target.location
    iface = run.interface
    lines = [f"sia-tui send: {printable(agent)}" + (f"  [{iface.badge}]" if iface else "")]
    for step in run.steps:
        if step.status is StepStatus.FAILED:
            lines.append(f"step {step.step} {step.title} failed: {printable(step.message)}")
    what = f"{plain.kind.value} part, {plain.mode}"
    if plain.task_id:
        what += f", on task {printable(plain.task_id)}"
    if plain.skill_id:
        what += f", skill {printable(plain.skill_id)}"
    if plain.held:
        lines.append(f"not sent ({what}): {printable(plain.held)}")
    elif plain.sent:
        lines.append(f"sent: one message ({what})")
    if plain.error is not None:
        lines.append(f"error: {printable(plain.error)}")
        if (error := run.answers.a2a_error) is not None:
            lines.append(f"a2a_error: {printable(_json(error.to_json()))}")
    if run.task is not None:
        lines += _task_lines(run.task)
    if plain.message is not None:
        lines += _message_lines("answer: Message", plain.message, "")
    if plain.events:
        lines.append(f"stream events: {plain.events}")
    lines += [f"warning: {printable(w)}" for w in run.warnings]
    return "\n".join(lines) + "\n"


def _task_lines(task: Task) -> list[str]:
    context = f" (context {printable(task.context_id)})" if task.context_id else ""
    lines = [f"answer: Task {printable(task.id)} {printable(task.state)}{context}"]
    if task.status_message is not None:
        lines += _message_lines("  status message", task.status_message, "  ")
    for artifact in task.artifacts:
        name = f" [{printable(artifact.name)}]" if artifact.name else ""
        lines.append(f"  artifact {printable(artifact.artifact_id)}{name}")
        lines += [_part_line(part, "    ") for part in artifact.parts]
    if task.history:
        lines.append(f"  history: {len(task.history)} messages")
        for message in task.history:
            lines += _message_lines("   ", message, "    ")
    return lines


def _message_lines(label: str, message: Message, indent: str) -> list[str]:
    head = f"{label} {printable(message.message_id or '(no messageId)')} {message.role}"
    return [head, *(_part_line(part, indent + "  ") for part in message.parts)]


def _part_line(part: Part, indent: str) -> str:
    value = part.value if isinstance(part.value, str) else _json(part.value)
    if len(value) > _SHOWN:
        value = value[:_SHOWN] + f"… ({len(value) - _SHOWN} more characters)"
    media = f" ({printable(part.media_type)})" if part.media_type else ""
    return f"{indent}{part.kind}{media}: {printable(value)}"


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)
