"""`sia-tui fuzz` against the reference agent: it fuzzes clean, and each fuzz finding is
found, shrunk and named against the fault built for it (RULES INV3, ERR3, ERR5, CP10)."""

from __future__ import annotations

from typing import Any

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.fuzz import CaseKind, FindingKind, Fuzzer, FuzzReport, FuzzSettings
from sia_tui.core.fuzz.mutations import mutations
from sia_tui.core.run.read_model import Target
from sia_tui.core.run.refusal import Grade
from sia_tui.core.schemas.validation import compile_schema
from tests.support.agents import StartAgent

SKILL = "evaluate_resource_condition"


async def fuzz(url: str, skill: str = SKILL, **settings: Any) -> FuzzReport:
    """Learn, fuzz and close; fast by default (the rate bound is tested on its own)."""
    chosen = {"examples": 16, "seed": 5, "rate": 1000.0, **settings}
    fuzzer = Fuzzer(Target(url, skill_id=skill), ClientOptions(), FuzzSettings(**chosen))
    try:
        await fuzzer.learn()
        return await fuzzer.run()
    finally:
        await fuzzer.aclose()


async def test_the_reference_agent_fuzzes_clean(reference_agent: StartAgent) -> None:
    """Valid cases complete with schema-valid output; invalid ones are REJECTED input_invalid
    with details at the member (the refusal grader's words, RULES INV3)."""
    report = await fuzz(reference_agent().url)
    assert report.outcome == "passed", [c.reason for c in report.cases if c.grade is Grade.FAIL]
    assert report.count(Grade.PASS, CaseKind.VALID) >= 1
    assert report.count(Grade.PASS, CaseKind.INVALID) >= 1
    invalid = [c for c in report.cases if c.kind is CaseKind.INVALID]
    assert all(
        c.rule == "INV3" and "TASK_STATE_REJECTED with input_invalid" in c.reason for c in invalid
    )
    # Every case is an invocation of the one run the session saves (replay, report, mock).
    assert len(report.runs) == 1
    assert len(report.runs[0].past_invocations) + 1 == len(report.cases)


async def test_valid_refused_at_a_boundary_is_found_and_shrunk(
    reference_agent: StartAgent,
) -> None:
    """rejects-boundary: one-character strings refused with input_invalid (RULES INV3)."""
    report = await fuzz(reference_agent(fault="rejects-boundary").url)
    assert report.outcome == "failed"
    [failure] = report.failures
    assert failure.kind is CaseKind.VALID and failure.finding is FindingKind.VALID_REFUSED
    assert failure.rule == "INV3" and "refused with input_invalid" in failure.reason
    # Shrunk: hypothesis' smallest strings are one character long.
    assert failure.arguments["resource_id"] == "0"


async def test_output_that_breaks_its_schema_for_some_inputs_is_found(
    reference_agent: StartAgent,
) -> None:
    """output-invalid-some: a negative threshold makes the result break its schema (CP10)."""
    report = await fuzz(reference_agent(fault="output-invalid-some").url, examples=40)
    [failure] = report.failures
    assert failure.finding is FindingKind.OUTPUT_INVALID and failure.kind is CaseKind.VALID
    assert failure.arguments["condition"]["threshold"] < 0
    assert "step 10" in failure.reason


async def test_invalid_arguments_accepted_are_found(reference_agent: StartAgent) -> None:
    """args-execution-failed: invalid arguments reach domain logic (RULES INV3), graded
    with the same words as probe's invalid-argument probes."""
    report = await fuzz(reference_agent(fault="args-execution-failed").url)
    [failure] = report.failures
    assert failure.kind is CaseKind.INVALID and failure.finding is FindingKind.WRONG_REFUSAL
    assert (
        failure.rule == "INV3" and "input_invalid comes before any domain logic" in failure.reason
    )


async def test_details_at_the_wrong_member_are_found(reference_agent: StartAgent) -> None:
    """details-wrong-member: details name the schema path, not the member (RULES ERR5)."""
    report = await fuzz(reference_agent(fault="details-wrong-member").url)
    [failure] = report.failures
    assert failure.finding is FindingKind.WRONG_REFUSAL and failure.rule == "ERR5"


async def test_a_skill_that_may_act_is_not_fuzzed_without_consent(
    reference_agent: StartAgent,
) -> None:
    """The one execute gate: without --allow-execute nothing is sent, and the run is
    incomplete, never passed."""
    report = await fuzz(reference_agent().url, skill="apply_interface_shutdown")
    assert report.outcome == "incomplete" and not report.cases
    assert "execute authority" in report.skipped
    assert len(report.learning.past_invocations) == 0


def test_every_mutation_is_one_change_the_validator_rejects() -> None:
    """Invalid by construction: each mutation differs from the valid value in one member
    and the 2020-12 validator rejects it (pattern, format and unevaluatedProperties too)."""
    schema = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z]+$"},
            "at": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "minimum": 0, "maximum": 9},
            "op": {"enum": ["a", "b"]},
        },
        "required": ["id", "n"],
        "unevaluatedProperties": False,
    }
    compiled = compile_schema(schema)
    valid = {"id": "abc", "at": "2026-01-01T00:00:00Z", "n": 3, "op": "a"}
    found = mutations(compiled, valid)
    kinds = {m.kind for m in found}
    assert {"pattern-broken", "format-broken", "unevaluated-member", "out-of-range"} <= kinds
    assert {"missing-required", "wrong-type", "enum-miss"} <= kinds
    for mutation in found:
        assert not compiled.is_valid(mutation.arguments), mutation.note
        changed = (
            set(valid.items() ^ mutation.arguments.items())
            if isinstance(mutation.arguments, dict)
            else set()
        )
        assert len({k for k, _ in changed}) == 1, mutation.note
