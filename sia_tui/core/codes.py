"""The draft's ten machine-readable error codes (RULES ERR2, ERR3; WIRE.md table)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sia_tui.core.task_state import TaskState


class DetectedBy(StrEnum):
    """Who detected an error (RULES CP13): the client itself, or the agent's task."""

    LOCAL = "local"
    REMOTE = "remote"


class ErrorCode(StrEnum):
    """The draft's ten codes, in the WIRE.md table order (RULES ERR2)."""

    SKILL_NOT_ADVERTISED = "skill_not_advertised"
    INTERFACE_UNAVAILABLE = "interface_unavailable"
    INTERFACE_INVALID = "interface_invalid"
    INTERFACE_MISMATCH = "interface_mismatch"
    INPUT_INVALID = "input_invalid"
    CONSTRAINT_REJECTED = "constraint_rejected"
    AUTHORIZATION_FAILED = "authorization_failed"
    RESOURCE_LIMIT_EXCEEDED = "resource_limit_exceeded"
    EXECUTION_FAILED = "execution_failed"
    OUTPUT_INVALID = "output_invalid"


@dataclass(frozen=True)
class CodeInfo:
    """One of the ten codes, with its terminal state, meaning and hint."""

    code: ErrorCode
    #: A2A terminal state, or None when the error is local-only (no remote task exists).
    terminal_state: TaskState | None
    #: One line for the UI.
    meaning: str
    #: What a user should do next, one sentence.
    hint: str


_CODES = (
    CodeInfo(
        ErrorCode.SKILL_NOT_ADVERTISED,
        None,
        "The Agent Card does not advertise the selected skill (or describe_skill).",
        "Choose a skill the card's schema-interface extension lists; the card must advertise "
        "both describe_skill and the skill (RULES ADV1, ADV2).",
    ),
    CodeInfo(
        ErrorCode.INTERFACE_UNAVAILABLE,
        TaskState.FAILED,
        "The agent cannot currently return the advertised Skill Interface Document.",
        "Retry later; if it persists the agent is advertising an interface it cannot serve.",
    ),
    CodeInfo(
        ErrorCode.INTERFACE_INVALID,
        TaskState.FAILED,
        "The Skill Interface Document or an embedded schema is defective or does not match "
        "its digest.",
        "Make the document, its embedded schemas and their digests agree: each digest is "
        "SHA-256 over RFC 8785 (JCS) bytes (RULES SID6, SR4).",
    ),
    CodeInfo(
        ErrorCode.INTERFACE_MISMATCH,
        TaskState.REJECTED,
        "The skill_version or interface_digest sent differs from the agent's active document.",
        "Re-fetch the Agent Card and run describe_skill again: the interface changed.",
    ),
    CodeInfo(
        ErrorCode.INPUT_INVALID,
        TaskState.REJECTED,
        "The skill arguments do not validate against the input schema.",
        "Fix the arguments at the listed JSON Pointers and invoke again.",
    ),
    CodeInfo(
        ErrorCode.CONSTRAINT_REJECTED,
        TaskState.REJECTED,
        "The request is valid but violates a constraint the agent enforces.",
        "Read the constraints member of the document and adjust the request.",
    ),
    CodeInfo(  # RULES INV4: only the agent authorizes; a valid interface grants nothing.
        ErrorCode.AUTHORIZATION_FAILED,
        TaskState.REJECTED,
        "The agent did not authorize this caller for this skill (validation is not authorization).",
        "Check the credentials you configured; a valid interface grants nothing by itself.",
    ),
    CodeInfo(
        ErrorCode.RESOURCE_LIMIT_EXCEEDED,
        None,
        "A resource limit was hit: REJECTED if checked before acceptance, FAILED during "
        "processing.",
        "Reduce the request size or scope, or retry when the agent is less loaded.",
    ),
    CodeInfo(
        ErrorCode.EXECUTION_FAILED,
        TaskState.FAILED,
        "Domain processing failed after the request was accepted.",
        "This is the agent's own failure; report it with the saved session.",
    ),
    CodeInfo(
        ErrorCode.OUTPUT_INVALID,
        TaskState.FAILED,
        "The skill output or a supporting record does not validate against its schema.",
        "The result is unusable; report the located errors to the agent's vendor.",
    ),
)

#: Every code by name, in the WIRE.md table order.
ERROR_CODES: dict[ErrorCode, CodeInfo] = {c.code: c for c in _CODES}


def as_error_code(value: object) -> ErrorCode | None:
    """``value`` as one of the ten codes, or None for anything else (RULES ERR2)."""
    if not isinstance(value, str):
        return None
    try:
        return ErrorCode(value)
    except ValueError:
        return None


def describe_code(code: str) -> CodeInfo | None:
    """Return the known code, or None for a code outside the ten."""
    known = as_error_code(code)
    return ERROR_CODES[known] if known else None


def expected_states(code: ErrorCode) -> frozenset[TaskState]:
    """Terminal states an agent may legitimately pair with ``code`` (RULES ERR3)."""
    if code == ErrorCode.RESOURCE_LIMIT_EXCEEDED:
        return frozenset({TaskState.REJECTED, TaskState.FAILED})
    info = ERROR_CODES.get(code)
    if info is None or info.terminal_state is None:
        return frozenset()
    return frozenset({info.terminal_state})
