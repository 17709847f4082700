"""Grading: what each probe expects (with its RULES id) and the verdict on an observation.

One table, :data:`EXPECTATIONS`, says per probe which code and state pass, what is only a
warning because the draft is silent, and whether ``details`` must locate the bad member.
:func:`grade` applies it; replaying a session re-grades recorded answers with today's table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sia_tui.core.codes import ErrorCode
from sia_tui.core.jsonkit.pointer import display
from sia_tui.core.probe.model import Answer, Grade, Observation, ProbeKind
from sia_tui.core.task_state import TaskState

REJECTED = TaskState.REJECTED
_INPUT = ErrorCode.INPUT_INVALID
_MISMATCH = ErrorCode.INTERFACE_MISMATCH
#: Codes that say the agent ran domain logic on the request (or tried to).
_RAN = (ErrorCode.EXECUTION_FAILED, ErrorCode.OUTPUT_INVALID)
_INV2_ORDER = (
    "it looked at the arguments instead of first rejecting the interface: the agent "
    "compares skill_version and interface_digest before the arguments (RULES INV2)"
)
_INV3_RAN = (
    "it ran domain logic on arguments that do not validate: input_invalid comes before "
    "any domain logic (RULES INV3)"
)


@dataclass(frozen=True)
class Expectation:
    """What one probe expects, and how far a different answer is tolerated."""

    title: str
    #: The RULES id the verdict is judged against.
    rule: str
    code: ErrorCode
    #: Terminal states that go with ``code`` here (RULES ERR3).
    states: tuple[TaskState, ...] = (REJECTED,)
    #: Codes that only warn: the draft is silent and they are reasonable answers.
    tolerated: tuple[ErrorCode, ...] = ()
    #: Any refusal warns (a wrong envelope, where the draft names no code).
    any_refusal_warns: bool = False
    #: An A2A error (JSON-RPC / HTTP+JSON) or HTTP 401/403 refusal warns instead of failing.
    a2a_refusal_warns: bool = False
    #: ``details`` must name the bad member (RULES ERR5).
    locate: bool = False
    #: Extra words for a wrong code, by code.
    wrong_code_notes: dict[ErrorCode, str] = field(default_factory=dict)

    def describe(self) -> str:
        """``TASK_STATE_REJECTED with interface_mismatch`` (+ the details requirement)."""
        text = f"{' or '.join(self.states)} with {self.code}"
        return text + (", details naming the bad member" if self.locate else "")


def _invalid(title: str) -> Expectation:
    return Expectation(
        title,
        "INV3",
        _INPUT,
        locate=True,
        wrong_code_notes={code: _INV3_RAN for code in _RAN},
    )


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
        wrong_code_notes={code: _INV3_RAN for code in _RAN},
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


@dataclass(frozen=True)
class Verdict:
    """A grade, why, and (on failure) what the agent should have answered."""

    grade: Grade
    reason: str
    should_have: str = ""


def should_have(expected: Expectation) -> str:
    """What a conforming agent answers, in words."""
    text = (
        f"a task in {' or '.join(expected.states)} whose final status message has one data part "
        f'{{"code": "{expected.code}", "message": ...}}'
    )
    if expected.locate:
        text += ', with "details" whose instance_path points at the bad member (RULES ERR5)'
    return text


def _fail(expected: Expectation, reason: str) -> Verdict:
    return Verdict(Grade.FAIL, reason, should_have(expected))


def grade(kind: ProbeKind, observed: Observation, pointers: tuple[str, ...] = ()) -> Verdict:
    """The verdict on ``observed`` for probe ``kind`` (``pointers``: where details may point)."""
    expected = EXPECTATIONS[kind]
    if observed.answer is not Answer.TASK:
        return _not_a_task(expected, observed)
    state = observed.state or "no state"
    if state not in (TaskState.REJECTED, TaskState.FAILED):
        return _accepted(kind, expected, state)
    code = observed.code
    if code is None:
        reason = f"the task ended {state} without one of the draft's codes (RULES ERR1, ERR2)"
        if expected.any_refusal_warns and state == REJECTED:
            return Verdict(Grade.WARN, reason)
        return _fail(expected, reason)
    if code == expected.code:
        if state not in expected.states:
            wanted = " or ".join(expected.states)
            return _fail(expected, f"{code} came with {state}, not {wanted} (RULES ERR3)")
        if expected.locate:
            return _locate(expected, observed, pointers)
        return Verdict(Grade.PASS, f"{state} with {code}")
    note = expected.wrong_code_notes.get(code)
    if note is not None:
        return _fail(expected, f"answered {code} ({state}): {note}")
    if code in expected.tolerated or (expected.any_refusal_warns and state == REJECTED):
        return Verdict(
            Grade.WARN,
            f"answered {code} ({state}); the draft names no code for this, "
            f"{expected.code} was expected",
        )
    return _fail(expected, f"answered {code} ({state}), not {expected.code}")


def _not_a_task(expected: Expectation, observed: Observation) -> Verdict:
    if observed.answer is Answer.MESSAGE:
        reason = "answered with a Message, not a task carrying the draft's error"
        return (
            Verdict(Grade.WARN, reason) if expected.any_refusal_warns else _fail(expected, reason)
        )
    refused_by_http = observed.http_status in (401, 403)
    what = "an A2A error" if observed.answer is Answer.A2A_ERROR else "no usable answer"
    reason = f"{what}: {observed.error or 'HTTP ' + str(observed.http_status)}"
    lenient = expected.any_refusal_warns or expected.a2a_refusal_warns
    if observed.answer is Answer.A2A_ERROR and lenient:
        return Verdict(Grade.WARN, f"refused with {reason}; the draft expects {expected.code}")
    if refused_by_http and expected.a2a_refusal_warns:
        return Verdict(Grade.WARN, f"refused at the HTTP layer ({reason})")
    return _fail(expected, reason)


def _accepted(kind: ProbeKind, expected: Expectation, state: str) -> Verdict:
    if state == TaskState.AUTH_REQUIRED and kind is ProbeKind.MISSING_CREDENTIALS:
        return Verdict(Grade.WARN, "the task asked for authentication (AUTH_REQUIRED)")
    if state == TaskState.COMPLETED:
        return _fail(expected, "the agent accepted the request and completed the task")
    return _fail(expected, f"the agent accepted the request: the task is {state}")


def _locate(expected: Expectation, observed: Observation, pointers: tuple[str, ...]) -> Verdict:
    """RULES ERR5: ``details`` locate the bad member with a JSON Pointer."""
    paths = [d.get("instance_path") for d in observed.details]
    if not paths:
        return Verdict(
            Grade.WARN,
            "REJECTED with input_invalid, but no details locate the bad member (RULES ERR5)",
        )
    if any(p in pointers for p in paths):
        return Verdict(
            Grade.PASS, f"{observed.state} with input_invalid, details at {_list(paths)}"
        )
    if any(isinstance(p, str) and p.removeprefix("/arguments") in pointers for p in paths):
        return Verdict(
            Grade.WARN,
            f"details point at {_list(paths)}: relative to the request object, where "
            "WIRE.md's example is relative to the arguments",
        )
    return _fail(
        expected,
        f"details point at {_list(paths)}, not at {' or '.join(display(p) for p in pointers)}",
    )


def _list(paths: list[object]) -> str:
    shown = [display(p) if isinstance(p, str) else repr(p) for p in paths[:5]]
    return ", ".join(shown) + (f" (+{len(paths) - 5})" if len(paths) > 5 else "")
