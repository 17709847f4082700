"""`sia-tui check` against each attack: a named error at the right step, in bounded time
and memory (RULES SR7 and the untrusted-input contract of docs/CORE.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hostile.attacks import ATTACKS
from tests.hostile.measure import Measured, check

#: Each attack runs `sia-tui check` in a child.
#: Slow: started first (tests/conftest.py), so it never ends a run alone.
pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Expected:
    """How a run against one attack must end."""

    attack: str
    step: int
    error_kind: str
    #: Words the step's message must contain (the limit it names).
    says: str
    flags: tuple[str, ...] = ()


#: For attacks on content, not time: the deadline must not be what ends them under load.
NOT_TIMED = ("--deadline", "10")

CASES = [
    Expected("gzip-gzip", 1, "response_too_large", "gzip-decoded"),
    Expected("deflate-deflate", 1, "response_too_large", "deflate-decoded"),
    Expected("gzip-deflate", 1, "response_too_large", "-decoded"),
    Expected("gzip-x3", 1, "encoding_refused", "3 layers, at most 2"),
    Expected("unknown-encoding", 1, "encoding_refused", "'sia-bogus' refused"),
    Expected(
        "chunked-forever",
        1,
        "response_too_large",
        "larger than 1000000 bytes",
        ("--max-response-bytes", "1000000"),
    ),
    Expected("sse-long-line", 8, "response_too_large", "SSE event larger", ("--mode", "stream")),
    Expected("slow-headers", 1, "deadline_exceeded", "deadline of 2 s passed"),
    Expected("slow-body", 1, "deadline_exceeded", "deadline of 2 s passed"),
    Expected("slow-poll", 9, "deadline_exceeded", "deadline of 2 s", ("--mode", "poll")),
    Expected("describe-working-forever", 3, "deadline_exceeded", "deadline of 2 s"),
    Expected("sse-keepalive", 8, "deadline_exceeded", "deadline of 2 s", ("--mode", "stream")),
    Expected(
        "sse-working-forever", 9, "deadline_exceeded", "deadline of 2 s", ("--mode", "stream")
    ),
]


BY_ATTACK = {case.attack: case for case in CASES}
#: Attacks whose run the deadline-cancel tests below make and check as these cases too (a
#: child run each: the same run twice cost about 0.4 s of CPU and 2.5 s of wall time).
CHECKED_BELOW = ("slow-poll", "sse-working-forever")
HERE = [case for case in CASES if case.attack not in CHECKED_BELOW]


@pytest.mark.parametrize("case", HERE, ids=[c.attack for c in HERE])
def test_attack_ends_with_a_named_error_in_bounded_time_and_memory(
    case: Expected, tmp_path: Path
) -> None:
    assert_named_error(case, check(case.attack, tmp_path, *case.flags))


def assert_named_error(case: Expected, measured: Measured) -> None:
    """The run ended at the case's step with its named error, the agent (or the limit)
    at fault, the flag to change named, and what was received kept."""
    failed = measured.failed
    assert measured.exit == 1, ATTACKS[case.attack].summary
    assert failed["step"] == case.step, failed
    assert failed["origin"] == "local" and failed["category"] == "transport"
    assert failed["error_kind"] == case.error_kind, failed
    # The run's verdict says the same: the named error, and the agent at fault, except
    # for a size limit: that is sia-tui's own policy, so the limit is named instead.
    assert measured.report["error"]["error_kind"] == case.error_kind
    party = "limit" if case.error_kind == "response_too_large" else "agent"
    assert measured.report["at_fault"]["party"] == party, measured.report["at_fault"]
    assert case.says in failed["message"], failed["message"]
    flag = {"deadline_exceeded": "--deadline", "response_too_large": "--max-response-bytes"}
    assert flag.get(case.error_kind, "") in failed["hint"]
    # Everything received so far is kept; an exchange cut by a limit says why. (The
    # deadline may also pass between two exchanges, e.g. while waiting to poll again.)
    kept = [e for e in measured.report["exchanges"] if e["seq"] in failed["exchanges"]]
    assert kept, measured.report["exchanges"]
    if case.error_kind != "deadline_exceeded":
        assert case.says in str(kept[-1]["error"]), kept[-1]


CANCELLED = "CancelTask sent: the task is now TASK_STATE_CANCELED"


def test_a_task_still_running_at_the_deadline_is_cancelled(tmp_path: Path) -> None:
    case = BY_ATTACK["sse-working-forever"]
    measured = check(case.attack, tmp_path, *case.flags)
    assert_named_error(case, measured)
    failed = measured.failed
    assert failed["evidence"]["deadline_cancel"] == CANCELLED
    assert failed["evidence"]["status_log"][-1].startswith("TASK_STATE_WORKING ×")
    purposes = [e["purpose"] for e in measured.report["exchanges"]]
    assert purposes[-1] == "cancel (deadline)"


def test_a_polled_task_still_running_at_the_deadline_is_cancelled(tmp_path: Path) -> None:
    """Poll mode: step 8 named the task, step 9 polls it until the deadline; then cancel."""
    case = BY_ATTACK["slow-poll"]
    measured = check(case.attack, tmp_path, *case.flags)
    assert_named_error(case, measured)
    failed = measured.failed
    assert failed["step"] == 9 and failed["evidence"]["deadline_cancel"] == CANCELLED
    purposes = [e["purpose"] for e in measured.report["exchanges"]]
    assert purposes[-1] == "cancel (deadline)"


@pytest.mark.parametrize("mode", ["poll", "stream"])
def test_a_describe_skill_task_still_running_at_the_deadline_is_cancelled(
    tmp_path: Path, mode: str
) -> None:
    """A task is cancelled where that is possible. The describe_skill task is no
    invocation of the skill (its document, and so ``cancellable``, is not known yet), but
    it is an A2A task the agent keeps running: CancelTask is asked, and its answer kept."""
    measured = check("describe-working-forever", tmp_path, "--mode", mode)
    failed = measured.failed
    assert failed["step"] == 3 and failed["error_kind"] == "deadline_exceeded"
    evidence = failed["evidence"]
    assert (evidence["task_id"], evidence["state"]) == ("task-h1", "TASK_STATE_WORKING")
    assert evidence["deadline_cancel"] == CANCELLED
    exchanges = measured.report["exchanges"]
    assert exchanges[-1]["purpose"] == "cancel (deadline)"
    # Everything received so far is kept: the describe_skill answer and every poll.
    purposes = [e["purpose"] for e in exchanges if e["seq"] in failed["exchanges"]]
    assert purposes[0] == "describe_skill" and "poll" in purposes


def test_a_huge_number_in_the_result_is_a_located_output_finding(tmp_path: Path) -> None:
    measured = check("number-10e400", tmp_path, *NOT_TIMED)
    failed = measured.failed
    assert (failed["step"], failed["code"], failed["origin"]) == (10, "output_invalid", "local")
    finding = failed["findings"][0]
    assert (finding["pointer"], finding["keyword"]) == ("/observed_value", "maximum")
    assert len(finding["actual"]) <= 120  # a 401-digit number is shown shortened


def test_a_backtracking_pattern_is_a_located_finding_not_a_hang(tmp_path: Path) -> None:
    """8,000 strings once cost 203 s at the engine's default backtrack limit."""
    measured = check("backtracking-pattern", tmp_path, *NOT_TIMED)
    failed = measured.failed
    assert (failed["step"], failed["code"]) == (10, "output_invalid")
    finding = failed["findings"][0]
    assert (finding["pointer"], finding["keyword"]) == ("/result/0", "pattern")
    assert finding["schema_path"] == "/properties/result/items/pattern"
    assert "backtracking steps" in finding["message"] and "not validated" in finding["message"]
