"""Grading: every branch of the verdict, from an observation alone (no network)."""

from __future__ import annotations

import pytest

from sia_tui.core.codes import ErrorCode
from sia_tui.core.probe.grading import EXPECTATIONS, grade
from sia_tui.core.probe.results import Answer, Grade, Observation, ProbeKind

K = ProbeKind
REJ, FAIL, DONE = "TASK_STATE_REJECTED", "TASK_STATE_FAILED", "TASK_STATE_COMPLETED"


def task(state: str, code: ErrorCode | None = None, *details: str) -> Observation:
    return Observation(
        Answer.TASK,
        state=state,
        code=code,
        details=[{"instance_path": d} for d in details],
    )


CASES = [
    # RULES INV2: the expected code and state pass.
    (K.STALE_DIGEST, task(REJ, ErrorCode.INTERFACE_MISMATCH), Grade.PASS),
    # Accepting the bad request fails, whatever the probe.
    (K.STALE_DIGEST, task(DONE), Grade.FAIL),
    (K.MISSING_SKILL, task("TASK_STATE_WORKING"), Grade.FAIL),
    # INV2 order: arguments looked at before the digest.
    (K.UNKNOWN_VERSION, task(REJ, ErrorCode.INPUT_INVALID), Grade.FAIL),
    # ERR3: the right code with the wrong state fails.
    (K.STALE_DIGEST, task(FAIL, ErrorCode.INTERFACE_MISMATCH), Grade.FAIL),
    # ERR1/ERR2: a rejection without one of the ten codes.
    (K.STALE_DIGEST, task(REJ), Grade.FAIL),
    (K.MISSING_SKILL, task(REJ), Grade.WARN),
    # INV1: the draft names no code for a missing member: another refusal only warns...
    (K.MISSING_SKILL, task(REJ, ErrorCode.INTERFACE_MISMATCH), Grade.WARN),
    (K.MISSING_SKILL, Observation(Answer.A2A_ERROR, error="-32602"), Grade.WARN),
    (K.MISSING_SKILL, Observation(Answer.MESSAGE, message="no"), Grade.WARN),
    # ...but running domain logic on missing arguments fails (INV3).
    (K.MISSING_ARGUMENTS, task(FAIL, ErrorCode.EXECUTION_FAILED), Grade.FAIL),
    # INV3, ERR5: input_invalid with details at the member passes.
    (K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID, "/a/b"), Grade.PASS),
    (K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID, "/x", "/a/b"), Grade.PASS),
    # details relative to the request object: reasonable, not WIRE.md's form.
    (K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID, "/arguments/a/b"), Grade.WARN),
    # no details at all: the code is right, the location is missing.
    (K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID), Grade.WARN),
    # details at the wrong member.
    (K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID, "/a"), Grade.FAIL),
    (K.INVALID_ENUM_MISS, task(FAIL, ErrorCode.EXECUTION_FAILED), Grade.FAIL),
    (K.INVALID_ENUM_MISS, Observation(Answer.A2A_ERROR, error="-32602"), Grade.FAIL),
    (K.INVALID_ENUM_MISS, Observation(Answer.MESSAGE), Grade.FAIL),
    # DS4: interface_unavailable for an unadvertised id is a reasonable reading.
    (K.UNADVERTISED_SKILL, task(REJ, ErrorCode.SKILL_NOT_ADVERTISED), Grade.PASS),
    (K.UNADVERTISED_SKILL, task(FAIL, ErrorCode.SKILL_NOT_ADVERTISED), Grade.PASS),
    (K.UNADVERTISED_SKILL, task(FAIL, ErrorCode.INTERFACE_UNAVAILABLE), Grade.WARN),
    (K.UNADVERTISED_SKILL, task(DONE), Grade.FAIL),
    (K.UNADVERTISED_SKILL, task(FAIL, ErrorCode.OUTPUT_INVALID), Grade.FAIL),
    # ERR3: constraint_rejected; a resource limit or an HTTP-level refusal only warns.
    (K.OVERSIZED_INPUT, task(REJ, ErrorCode.CONSTRAINT_REJECTED), Grade.PASS),
    (K.OVERSIZED_INPUT, task(REJ, ErrorCode.RESOURCE_LIMIT_EXCEEDED), Grade.WARN),
    (K.OVERSIZED_INPUT, Observation(Answer.A2A_ERROR, error="413"), Grade.WARN),
    (K.OVERSIZED_INPUT, task(REJ, ErrorCode.INPUT_INVALID), Grade.FAIL),
    # INV4: authorization_failed; HTTP 401 or AUTH_REQUIRED only warn.
    (K.MISSING_CREDENTIALS, task(REJ, ErrorCode.AUTHORIZATION_FAILED), Grade.PASS),
    (
        K.MISSING_CREDENTIALS,
        Observation(Answer.TRANSPORT_ERROR, error="HTTP 401", http_status=401),
        Grade.WARN,
    ),
    (K.MISSING_CREDENTIALS, task("TASK_STATE_AUTH_REQUIRED"), Grade.WARN),
    (K.MISSING_CREDENTIALS, task(DONE), Grade.FAIL),
    # No usable answer is never a pass (a timeout is not a rejection).
    (K.STALE_DIGEST, Observation(Answer.TRANSPORT_ERROR, error="timed out"), Grade.FAIL),
    (K.MISSING_SKILL, Observation(Answer.TRANSPORT_ERROR, http_status=500), Grade.FAIL),
]


@pytest.mark.parametrize(("kind", "observed", "expected"), CASES)
def test_grade(kind: ProbeKind, observed: Observation, expected: Grade) -> None:
    verdict = grade(kind, observed, ("/a/b",))
    assert verdict.grade is expected, verdict.reason
    assert verdict.reason
    # A failure says what the agent should have answered, with the expected code.
    assert bool(verdict.should_have) is (expected is Grade.FAIL)
    if expected is Grade.FAIL:
        assert str(EXPECTATIONS[kind].code) in verdict.should_have


def test_several_data_parts_in_the_error_status_fail_err1() -> None:
    """RULES ERR1: "exactly one Data Part". Two are a failure, whichever the first says."""
    observed = task(REJ, ErrorCode.INPUT_INVALID, "/a/b")
    observed.data_parts = 2
    verdict = grade(K.INVALID_WRONG_TYPE, observed, ("/a/b",))
    assert (verdict.grade, verdict.rule) == (Grade.FAIL, "ERR1")
    assert "2 data parts" in verdict.reason


def test_a_details_entry_without_instance_path_fails_err5() -> None:
    """RULES ERR5: each entry must contain instance_path; details absent altogether warn."""
    observed = task(REJ, ErrorCode.INPUT_INVALID, "/a/b")
    observed.unlocated_details = 1
    verdict = grade(K.INVALID_WRONG_TYPE, observed, ("/a/b",))
    assert (verdict.grade, verdict.rule) == (Grade.FAIL, "ERR5")
    assert "1 details entry lacks an instance_path" in verdict.reason
    absent = grade(K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID), ("/a/b",))
    assert (absent.grade, absent.rule) == (Grade.WARN, "ERR5")


def test_the_verdict_names_the_rule_it_was_judged_by() -> None:
    """Wrong details are ERR5, a wrong state ERR3, a wrong code the probe's own rule."""
    wrong_member = grade(K.INVALID_WRONG_TYPE, task(REJ, ErrorCode.INPUT_INVALID, "/a"), ("/a/b",))
    wrong_state = grade(K.STALE_DIGEST, task(FAIL, ErrorCode.INTERFACE_MISMATCH))
    ran = grade(K.INVALID_WRONG_TYPE, task(FAIL, ErrorCode.EXECUTION_FAILED))
    assert [v.rule for v in (wrong_member, wrong_state, ran)] == ["ERR5", "ERR3", "INV3"]


def test_every_probe_has_an_expectation_naming_a_rule() -> None:
    assert set(EXPECTATIONS) == set(ProbeKind)
    assert all(e.rule and e.title for e in EXPECTATIONS.values())


def test_the_inv2_order_failure_explains_itself() -> None:
    """A stale digest answered input_invalid: the reason cites INV2, not just 'wrong code'."""
    verdict = grade(K.STALE_DIGEST, task(REJ, ErrorCode.INPUT_INVALID))
    assert "INV2" in verdict.reason and "before the arguments" in verdict.reason
