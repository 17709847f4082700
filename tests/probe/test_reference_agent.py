"""`sia-tui probe` against the reference agent: the clean agent passes every probe that
applies, and a failure names its rule, exchange and the right answer. That each fault makes
exactly its probes fail (FAULT_SPECS) is tests/engine/test_faults.py's fault table."""

from __future__ import annotations

import pytest

from sia_tui.core.probe.plan import unknown_minor_version, unknown_version
from sia_tui.core.probe.results import DRAFT, Grade
from sia_tui.core.schemas.validation import compile_schema
from tests.support.agents import StartAgent
from tests.support.probe import SKILL, grades, probe

#: What applies to evaluate_resource_condition on the reference agent: it declares no
#: numeric bound and no security scheme, so those two probes are skipped.
CLEAN_GRADES = {
    "unadvertised-skill": "pass",
    "stale-digest": "pass",
    "unknown-version": "pass",
    "unknown-minor-version": "pass",
    "missing-skill": "pass",
    "missing-arguments": "pass",
    "invalid-missing-required": "pass",
    "invalid-wrong-type": "pass",
    "invalid-extra-member": "pass",
    "invalid-enum-miss": "pass",
    "invalid-out-of-range": "skip",
    "oversized-input": "pass",
    "missing-credentials": "skip",
}


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json"])
async def test_clean_agent_passes_every_probe_that_applies(
    reference_agent: StartAgent, binding: str
) -> None:
    """RULES INV1 INV2 INV3 ERR2 ERR3 ERR5: every verdict names its rule and the draft."""
    report = await probe(reference_agent().url, binding=binding)
    assert report.learned and report.outcome == "passed"
    assert grades(report) == CLEAN_GRADES
    assert all(r.rule and r.draft == DRAFT for r in report.results)
    skipped = {r.id: r.reason for r in report.results if r.grade is Grade.SKIP}
    assert "no number with minimum" in skipped["invalid-out-of-range"]
    assert skipped["missing-credentials"] == "the card declares no security scheme"
    # RULES INV2: any other version is refused, the next minor as well as the next major.
    sent = {r.id: r.sent.data.get("skill_version") for r in report.results if r.sent}
    assert (sent["unknown-version"], sent["unknown-minor-version"]) == ("2.0", "1.1")


def test_the_version_probes_send_the_next_major_and_the_next_minor() -> None:
    assert (unknown_version("2.1"), unknown_minor_version("2.1")) == ("3.0", "2.2")
    assert unknown_minor_version("1.9") == "1.10"


async def test_a_bounded_number_and_no_enum_change_which_kinds_apply(
    reference_agent: StartAgent,
) -> None:
    """check_link_capacity declares required_mbps > 0 and no enum: out-of-range runs (and
    passes, details at /required_mbps), enum-miss is skipped with its reason."""
    report = await probe(reference_agent().url, "check_link_capacity")
    by_id = {r.id: r for r in report.results}
    assert by_id["invalid-out-of-range"].grade is Grade.PASS
    assert by_id["invalid-out-of-range"].pointers == ("/required_mbps",)
    assert by_id["invalid-enum-miss"].grade is Grade.SKIP
    assert "no member with an enum" in by_id["invalid-enum-miss"].reason
    assert report.outcome == "passed"


async def test_a_failure_names_the_rule_the_exchange_and_the_right_answer(
    reference_agent: StartAgent,
) -> None:
    """The ignores-max-input agent completes oversized valid arguments: fail, RULES ERR3,
    the exchange that shows it, and what a conforming agent answers."""
    report = await probe(reference_agent(fault="ignores-max-input").url)
    (result,) = [r for r in report.results if r.grade is Grade.FAIL]
    assert (result.id, result.rule) == ("oversized-input", "ERR3")
    assert result.observed is not None and result.observed.state == "TASK_STATE_COMPLETED"
    assert "constraint_rejected" in result.should_have
    [exchange] = [e for e in report.exchanges if e.seq in result.exchanges]
    assert exchange.purpose == "probe oversized-input"
    assert len(exchange.request_body) > 4096
    assert result.sent is not None
    schema = compile_schema(
        report.learning.document["input_schema"]["resolution"]["schema"]  # type: ignore[index]
    )
    assert schema.is_valid(result.sent.data["arguments"])  # valid, only too large


async def test_probe_exchanges_continue_the_learning_runs_numbering(
    reference_agent: StartAgent,
) -> None:
    """One numbering for the whole session file: learning first, then the probes."""
    report = await probe(reference_agent().url)
    seqs = [e.seq for e in report.all_exchanges()]
    assert seqs == list(range(1, len(seqs) + 1))
    sent = [r for r in report.results if r.sent is not None]
    assert all(r.exchanges for r in sent)
    assert report.exchanges[0].seq == len(report.learning.exchanges) + 1
    assert SKILL in report.learning.skill_id  # type: ignore[operator]
