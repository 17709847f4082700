"""Grading: what each probe expects (with its RULES id), judged by the engine's one grader.

One table, :data:`EXPECTATIONS`, says per probe which code and state pass, what is only a
warning because the draft is silent, and whether ``details`` must locate the bad member.
:func:`grade` applies it with ``run/refusal.py``, the grader a deliberate negative test
uses too; replaying a session re-grades recorded answers with today's table.
"""

from __future__ import annotations

import dataclasses

from sia_tui.core.codes import ErrorCode
from sia_tui.core.probe.results import Observation, ProbeKind
from sia_tui.core.run.refusal import INVALID_ARGUMENTS, Expectation, Verdict
from sia_tui.core.run.refusal import grade as grade_answer
from sia_tui.core.task_state import TaskState

REJECTED = TaskState.REJECTED
_INPUT = ErrorCode.INPUT_INVALID
_MISMATCH = ErrorCode.INTERFACE_MISMATCH
_INV2_ORDER = (
    "it looked at the arguments instead of first rejecting the interface: the agent "
    "compares skill_version and interface_digest before the arguments (RULES INV2)"
)


def _invalid(title: str) -> Expectation:
    return dataclasses.replace(INVALID_ARGUMENTS, title=title)


#: What every probe expects (RULES ids; draft-huang-ainetops-agent-schema-interfaces-00).
EXPECTATIONS: dict[ProbeKind, Expectation] = {
    ProbeKind.UNADVERTISED_SKILL: Expectation(
        "describe_skill for a skill the card does not advertise",
        "ERR2",
        ErrorCode.SKILL_NOT_ADVERTISED,
        # The draft gives this code no terminal state (a client finds it): either will do.
        states=(REJECTED, TaskState.FAILED),
        # DS4's "cannot currently return it" is a reasonable reading for an unknown id.
        tolerated=(ErrorCode.INTERFACE_UNAVAILABLE, _INPUT),
        a2a_refusal_warns=True,
    ),
    ProbeKind.STALE_DIGEST: Expectation(
        "invocation with a stale interface_digest",
        "INV2",
        _MISMATCH,
        wrong_code_notes={_INPUT: _INV2_ORDER},
    ),
    ProbeKind.UNKNOWN_VERSION: Expectation(
        "invocation with an unknown skill_version (the next major)",
        "INV2",
        _MISMATCH,
        wrong_code_notes={_INPUT: _INV2_ORDER},
    ),
    # INV2: any other version is refused, a compatible minor too (no negotiation, DS5).
    ProbeKind.UNKNOWN_MINOR_VERSION: Expectation(
        "invocation with an unknown skill_version (the next minor)",
        "INV2",
        _MISMATCH,
        wrong_code_notes={_INPUT: _INV2_ORDER},
    ),
    ProbeKind.MISSING_SKILL: Expectation(
        "request object without skill", "INV1", _INPUT, any_refusal_warns=True
    ),
    ProbeKind.MISSING_ARGUMENTS: Expectation(
        "request object without arguments",
        "INV1",
        _INPUT,
        any_refusal_warns=True,
        wrong_code_notes=dict(INVALID_ARGUMENTS.wrong_code_notes),
    ),
    ProbeKind.INVALID_MISSING_REQUIRED: _invalid("arguments without a required member"),
    ProbeKind.INVALID_WRONG_TYPE: _invalid("a member of the wrong type"),
    ProbeKind.INVALID_EXTRA_MEMBER: _invalid("a member additionalProperties forbids"),
    ProbeKind.INVALID_ENUM_MISS: _invalid("a value outside its enum"),
    ProbeKind.INVALID_OUT_OF_RANGE: _invalid("a number outside its bounds"),
    ProbeKind.OVERSIZED_INPUT: Expectation(
        "valid arguments beyond max_input_bytes",
        "ERR3",
        ErrorCode.CONSTRAINT_REJECTED,
        tolerated=(ErrorCode.RESOURCE_LIMIT_EXCEEDED,),
        a2a_refusal_warns=True,  # e.g. HTTP 413 / REQUEST_TOO_LARGE before the skill sees it
    ),
    ProbeKind.MISSING_CREDENTIALS: Expectation(
        "valid invocation without the credentials the card asks for",
        "INV4",
        ErrorCode.AUTHORIZATION_FAILED,
        a2a_refusal_warns=True,  # HTTP 401/403 is how A2A itself refuses
    ),
}


def grade(kind: ProbeKind, observed: Observation, pointers: tuple[str, ...] = ()) -> Verdict:
    """The verdict on ``observed`` for probe ``kind`` (``pointers``: where details may point)."""
    return grade_answer(EXPECTATIONS[kind], observed, pointers)
