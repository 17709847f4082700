"""What an agent answered a request, read once: the task's state and its draft error object.

``read_remote_error`` reads the error object of a failed or rejected task (RULES ERR1-ERR5);
``observation_of`` turns a task into the ``Observation`` the refusal grader judges. The
engine's steps 8-9 and ``sia-tui probe`` both read answers here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sia_tui.core.a2a.task_views import Task
from sia_tui.core.codes import ErrorCode, as_error_code, expected_states
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.task_state import TaskState

#: States a task ends in when the agent refused it (or it was cancelled).
ENDED_IN_ERROR = (TaskState.REJECTED, TaskState.FAILED, TaskState.CANCELED)


@dataclass
class RemoteError:
    """The error a task reported, with what was wrong with the way it was reported."""

    code: ErrorCode | None
    message: str
    state: str
    details: list[dict[str, Any]] = field(default_factory=list)
    #: Conformance findings about the error object itself (ERR1, ERR2, ERR3, ERR5).
    findings: list[Finding] = field(default_factory=list)
    #: Data parts in the final status message: exactly one carries the error (RULES ERR1).
    data_parts: int = 1
    #: ``details`` entries without an ``instance_path`` (RULES ERR5 requires one).
    unlocated: int = 0


def _warn(message: str, rule: str, pointer: str = "") -> Finding:
    return Finding(message, severity=Severity.WARNING, rule=rule, pointer=pointer)


def read_remote_error(task: Task) -> RemoteError:
    """Extract ``{code, message, details}`` from the task's final status message."""
    findings: list[Finding] = []
    status = task.status_message
    data_parts = status.data_parts() if status else []
    if len(data_parts) != 1:
        # RULES ERR1: exactly one Data Part carries the error object.
        findings.append(
            _warn(
                f"the final status message has {len(data_parts)} data parts; the draft requires "
                "exactly one carrying the error object",
                "ERR1",
                "/status/message/parts",
            )
        )
    error = next((p for p in data_parts if isinstance(p, dict) and "code" in p), None)
    if error is None:
        text = " ".join(str(p.value) for p in status.parts if p.kind == "text") if status else ""
        return RemoteError(
            None,
            text or "the agent gave no error object",
            task.state,
            findings=findings,
            data_parts=len(data_parts),
        )
    code = error.get("code")
    code_text = as_error_code(code)
    if code_text is None:
        # RULES ERR2: an unknown code is reported as a finding, never shown as a draft code.
        findings.append(
            _warn(
                f"error code {str(code)[:80]!r} is not one of the draft's ten codes",
                "ERR2",
                "/code",
            )
        )
    elif (states := expected_states(code_text)) and task.state not in states:
        # RULES ERR3: the terminal state depends on when the failure happened. A code the
        # draft gives no terminal state (skill_not_advertised: local, before any request)
        # has no ERR3 state to break.
        findings.append(
            _warn(
                f"{code_text} should end in {' or '.join(sorted(states))}, not {task.state}",
                "ERR3",
                "/status/state",
            )
        )
    details = error.get("details") or []
    clean: list[dict[str, Any]] = []
    unlocated = 0
    if isinstance(details, list):
        for index, entry in enumerate(details):
            if not isinstance(entry, dict) or not isinstance(entry.get("instance_path"), str):
                unlocated += 1
                findings.append(
                    _warn(
                        "a details entry lacks instance_path (a JSON Pointer)",
                        "ERR5",
                        f"/details/{index}",
                    )
                )
                continue
            clean.append(entry)
    message = error.get("message")
    return RemoteError(
        code_text,
        message if isinstance(message, str) else "",
        task.state,
        clean,
        findings,
        data_parts=len(data_parts),
        unlocated=unlocated,
    )


class Answer(StrEnum):
    """What kind of answer came back."""

    TASK = "task"
    MESSAGE = "message"
    #: A JSON-RPC or HTTP+JSON error: an A2A-level refusal, not one of the draft's codes.
    A2A_ERROR = "a2a_error"
    #: No usable answer: refused, timed out, not JSON, an HTTP status without an A2A error.
    TRANSPORT_ERROR = "transport_error"


@dataclass
class Observation:
    """The agent's answer to one request, as the refusal grader reads it."""

    answer: Answer
    #: The task's final (or last seen) state, ``TASK_STATE_*``.
    state: str | None = None
    #: The draft code from the status message's error object, if it is one of the ten.
    code: ErrorCode | None = None
    message: str = ""
    #: ``details`` entries with an ``instance_path`` (RULES ERR5).
    details: list[dict[str, Any]] = field(default_factory=list)
    #: The A2A or transport error text.
    error: str = ""
    #: HTTP status of the last exchange, when a response arrived.
    http_status: int | None = None
    #: What was wrong with the way the error was reported (ERR1, ERR2, ERR3, ERR5).
    notes: list[str] = field(default_factory=list)
    #: A task still SUBMITTED or WORKING when the watch ended (the agent acting on the
    #: wrong request): whether CancelTask was sent and the answer; "" when none was left.
    cancel: str = ""
    #: Data parts in the final status message of a task that ended in error (RULES ERR1);
    #: 1 for older recordings, which did not count them.
    data_parts: int = 1
    #: ``details`` entries that lack an ``instance_path`` (RULES ERR5).
    unlocated_details: int = 0


def observation_of(task: Task) -> Observation:
    """The state, and for a task that ended in error its draft error object (ERR1-ERR5)."""
    if task.state not in ENDED_IN_ERROR:
        return Observation(Answer.TASK, state=task.state)
    error = read_remote_error(task)
    return observation_of_error(error)


def observation_of_error(error: RemoteError) -> Observation:
    """The Observation of an error object already read from a task."""
    return Observation(
        Answer.TASK,
        state=error.state,
        code=error.code,
        message=error.message,
        details=list(error.details),
        notes=[f"{f.rule}: {f.message}" for f in error.findings],
        data_parts=error.data_parts,
        unlocated_details=error.unlocated,
    )
