"""`sia-tui probe` against an independent agent built on the official a2a-sdk 1.3.

Its grades (the same on both bindings) are the record of what the probe finds in an agent
that is not ours: it rejects stale digests, unknown versions and each kind of invalid
argument with located details; it answers an unadvertised describe_skill with
interface_unavailable (a warning: reasonable, not skill_not_advertised), a request without
`skill` with interface_mismatch (a warning: the draft names no code), and it executes
arguments beyond the max_input_bytes its document declares (a failure, RULES ERR3).
"""

from __future__ import annotations

import pytest

from tests.support.probe import grades, probe

SDK_GRADES = {
    "unadvertised-skill": "warn",
    "stale-digest": "pass",
    "unknown-version": "pass",
    "unknown-minor-version": "pass",
    "missing-skill": "warn",
    "missing-arguments": "pass",
    "invalid-missing-required": "pass",
    "invalid-wrong-type": "pass",
    "invalid-extra-member": "pass",
    "invalid-enum-miss": "pass",
    "invalid-out-of-range": "skip",
    "oversized-input": "fail",
    "missing-credentials": "skip",
}


@pytest.mark.parametrize("binding", ["jsonrpc", "http-json"])
async def test_the_sdk_agent_gets_its_grades(sdk_extension_agent_url: str, binding: str) -> None:
    report = await probe(sdk_extension_agent_url, binding=binding)
    assert report.learned, report.learning.failed_step
    assert grades(report) == SDK_GRADES
    by_id = {r.id: r for r in report.results}
    assert "interface_unavailable" in by_id["unadvertised-skill"].reason
    oversized = by_id["oversized-input"]
    assert oversized.observed is not None
    assert oversized.observed.state == "TASK_STATE_COMPLETED"
    assert "constraint_rejected" in oversized.should_have
