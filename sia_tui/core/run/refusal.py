"""The one grader of how an agent answers a request it should refuse (RULES INV2-INV4, ERR1-ERR5).

An :class:`Expectation` says which code and state pass and what only warns; :func:`grade`
judges an :class:`Observation` against it and returns a :class:`Verdict` with the RULES id
it was judged by. ``sia-tui probe`` grades every probe here, and the engine grades a
deliberate negative test (arguments that fail step 7, sent anyway) here with
:data:`INVALID_ARGUMENTS`, so the two can never grade the same answer differently.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from sia_tui.core.codes import ErrorCode
from sia_tui.core.findings import Finding, Severity
from sia_tui.core.jsonkit.pointer import display, join, split
from sia_tui.core.run.agent_answer import Answer, Observation
from sia_tui.core.task_state import TaskState

REJECTED = TaskState.REJECTED
_INPUT = ErrorCode.INPUT_INVALID
#: Codes that say the agent ran domain logic on the request (or tried to).
_RAN = (ErrorCode.EXECUTION_FAILED, ErrorCode.OUTPUT_INVALID)
#: Codes whose ``details`` entries must each carry an instance_path (RULES ERR5).
_LOCATED_CODES = (ErrorCode.INPUT_INVALID, ErrorCode.OUTPUT_INVALID)
INV3_RAN = (
    "it ran domain logic on arguments that do not validate: input_invalid comes before "
    "any domain logic (RULES INV3)"
)


class Grade(StrEnum):
    """How the agent's answer to one request is judged."""

    #: The expected code and state.
    PASS = "pass"
    #: The agent accepted the bad request, or gave the wrong code or state.
    FAIL = "fail"
    #: The draft is silent; the answer was reasonable but not the one expected.
    WARN = "warn"
    #: The probe does not apply (the reason says why); nothing was sent.
    SKIP = "skip"


@dataclass(frozen=True)
class Expectation:
    """What one request expects, and how far a different answer is tolerated."""

    title: str
    #: The RULES id the verdict is judged against when the answer has the expected form.
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


#: Arguments that do not validate against the input schema: rejected with input_invalid
#: before any domain logic, details locating the bad member (RULES INV3, ERR5).
INVALID_ARGUMENTS = Expectation(
    "arguments that do not validate",
    "INV3",
    _INPUT,
    locate=True,
    wrong_code_notes={code: INV3_RAN for code in _RAN},
)


@dataclass(frozen=True)
class Verdict:
    """A grade, the RULES id it was judged by, why, and (on failure) the right answer."""

    grade: Grade
    rule: str
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


def _fail(expected: Expectation, reason: str, rule: str = "") -> Verdict:
    return Verdict(Grade.FAIL, rule or expected.rule, reason, should_have(expected))


def grade(expected: Expectation, observed: Observation, pointers: tuple[str, ...] = ()) -> Verdict:
    """The verdict on ``observed`` (``pointers``: where details may point, RULES ERR5)."""
    if observed.answer is not Answer.TASK:
        return _not_a_task(expected, observed)
    state = observed.state or "no state"
    if state not in (TaskState.REJECTED, TaskState.FAILED):
        return _accepted(expected, state)
    if observed.data_parts > 1:
        # RULES ERR1: one data part carries the error; with several, which one counts?
        return _fail(
            expected,
            f"the final status message has {observed.data_parts} data parts; exactly one "
            "carries the error object (RULES ERR1)",
            "ERR1",
        )
    code = observed.code
    if code is None:
        rule = "ERR2" if any(n.startswith("ERR2") for n in observed.notes) else "ERR1"
        reason = f"the task ended {state} without one of the draft's codes (RULES {rule})"
        if expected.any_refusal_warns and state == REJECTED:
            return Verdict(Grade.WARN, rule, reason)
        return _fail(expected, reason, rule)
    if code == expected.code:
        return _expected_code(expected, observed, state, pointers)
    note = expected.wrong_code_notes.get(code)
    if note is not None:
        return _fail(expected, f"answered {code} ({state}): {note}")
    if code in expected.tolerated or (expected.any_refusal_warns and state == REJECTED):
        return Verdict(
            Grade.WARN,
            expected.rule,
            f"answered {code} ({state}); the draft names no code for this, "
            f"{expected.code} was expected",
        )
    return _fail(expected, f"answered {code} ({state}), not {expected.code}")


def _expected_code(
    expected: Expectation, observed: Observation, state: str, pointers: tuple[str, ...]
) -> Verdict:
    code = expected.code
    if state not in expected.states:
        wanted = " or ".join(expected.states)
        return _fail(expected, f"{code} came with {state}, not {wanted} (RULES ERR3)", "ERR3")
    if observed.unlocated_details and code in _LOCATED_CODES:
        # RULES ERR5: every entry carries its instance_path; absent details only warn.
        count = observed.unlocated_details
        lack = "entry lacks" if count == 1 else "entries lack"
        return _fail(
            expected,
            f"{state} with {code}, but {count} details {lack} an instance_path, which each "
            "entry must carry (RULES ERR5)",
            "ERR5",
        )
    if expected.locate:
        return _locate(expected, observed, pointers)
    return Verdict(Grade.PASS, expected.rule, f"{state} with {code}")


def _not_a_task(expected: Expectation, observed: Observation) -> Verdict:
    if observed.answer is Answer.MESSAGE:
        reason = "answered with a Message, not a task carrying the draft's error"
        if expected.any_refusal_warns:
            return Verdict(Grade.WARN, expected.rule, reason)
        return _fail(expected, reason)
    refused_by_http = observed.http_status in (401, 403)
    what = "an A2A error" if observed.answer is Answer.A2A_ERROR else "no usable answer"
    reason = f"{what}: {observed.error or 'HTTP ' + str(observed.http_status)}"
    lenient = expected.any_refusal_warns or expected.a2a_refusal_warns
    if observed.answer is Answer.A2A_ERROR and lenient:
        return Verdict(
            Grade.WARN, expected.rule, f"refused with {reason}; the draft expects {expected.code}"
        )
    if refused_by_http and expected.a2a_refusal_warns:
        return Verdict(Grade.WARN, expected.rule, f"refused at the HTTP layer ({reason})")
    return _fail(expected, reason)


def _accepted(expected: Expectation, state: str) -> Verdict:
    if state == TaskState.AUTH_REQUIRED and expected.code is ErrorCode.AUTHORIZATION_FAILED:
        return Verdict(
            Grade.WARN, expected.rule, "the task asked for authentication (AUTH_REQUIRED)"
        )
    if state == TaskState.COMPLETED:
        return _fail(expected, "the agent accepted the request and completed the task")
    return _fail(expected, f"the agent accepted the request: the task is {state}")


def _locate(expected: Expectation, observed: Observation, pointers: tuple[str, ...]) -> Verdict:
    """RULES ERR5: ``details`` locate the bad member with a JSON Pointer."""
    paths = [d.get("instance_path") for d in observed.details]
    state, code = observed.state, expected.code
    if not paths:
        return Verdict(
            Grade.WARN,
            "ERR5",
            f"{state} with {code}, but no details locate the bad member (RULES ERR5)",
        )
    if not pointers:  # nothing located the errors here: there is nothing to compare
        return Verdict(Grade.PASS, expected.rule, f"{state} with {code}, details at {_list(paths)}")
    if any(p in pointers for p in paths):
        return Verdict(Grade.PASS, expected.rule, f"{state} with {code}, details at {_list(paths)}")
    if any(isinstance(p, str) and p.removeprefix("/arguments") in pointers for p in paths):
        return Verdict(
            Grade.WARN,
            "ERR5",
            f"details point at {_list(paths)}: relative to the request object, where "
            "WIRE.md's example is relative to the arguments",
        )
    return _fail(
        expected,
        f"details point at {_list(paths)}, not at {' or '.join(display(p) for p in pointers)} "
        "(RULES ERR5)",
        "ERR5",
    )


def _list(paths: list[object]) -> str:
    shown = [display(p) if isinstance(p, str) else repr(p) for p in paths[:5]]
    return ", ".join(shown) + (f" (+{len(paths) - 5})" if len(paths) > 5 else "")


#: Keywords a validator locates at the object whose member they name: the member will do.
_MEMBER_KEYWORDS = {"required": "expected", "additionalProperties": "actual"}


def details_pointers(findings: Iterable[Finding]) -> tuple[str, ...]:
    """Where an agent's ``details`` may point for arguments with these validation findings:
    each error's own location, and for a missing or unexpected member the member itself
    (as the invalid-argument probes accept, RULES ERR5)."""
    out: dict[str, None] = {}
    for finding in findings:
        if finding.severity is not Severity.ERROR or finding.rule != "ERR5":
            continue
        out[finding.pointer] = None
        member = _MEMBER_KEYWORDS.get(finding.keyword or "")
        for name in _names(getattr(finding, member) if member else None):
            out[join([*split(finding.pointer), name])] = None
    return tuple(out)


def _names(rendered: object) -> list[str]:
    """The member names of a rendered JSON list (``["threshold"]``); none if cut short."""
    if not isinstance(rendered, str):
        return []
    try:
        names = json.loads(rendered)
    except ValueError:
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def negative_test_sentence(verdict: Verdict) -> str:
    """A deliberate negative test's verdict in one sentence: the step's message and the
    run's summary both say it, so check, the TUI and reports read the same words."""
    said = verdict.reason
    if f"RULES {verdict.rule}" not in said:
        said += f" (RULES {verdict.rule})"
    if verdict.grade is Grade.PASS:
        return (
            "the agent rejected the invalid arguments as the deliberate negative test "
            f"expects: {said}"
        )
    if verdict.grade is Grade.WARN:
        return (
            "the agent rejected the invalid arguments as the deliberate negative test expects, "
            f"with a warning: {said}"
        )
    return f"the deliberate negative test failed: {said}"
