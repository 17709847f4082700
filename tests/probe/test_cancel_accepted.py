"""A probe the agent accepted and is still acting on when the watch ends: its task is
cancelled where the document declares the skill cancellable, and the result says so."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sia_tui.agent import documents
from sia_tui.agent.catalog import SKILLS
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.prober import Prober
from sia_tui.core.probe.report_json import probe_to_json
from sia_tui.core.probe.results import Grade, ProbeReport
from sia_tui.core.run.read_model import Target
from tests.support.agents import StartAgent

SKILL = "check_link_capacity"


def _long_running_with_a_size_limit(cancellable: bool) -> tuple[Any, ...]:
    """The catalog with check_link_capacity (seconds of work, poll mode) given a
    ``max_input_bytes``, so the ignores-max-input fault makes it act on oversized input."""
    return tuple(
        dataclasses.replace(
            spec,
            cancellable=cancellable,
            constraints={**spec.constraints, "max_input_bytes": 128},
        )
        if spec.skill_id == SKILL
        else spec
        for spec in SKILLS
    )


async def _probe_in_poll_mode(url: str) -> ProbeReport:
    """The valid baseline runs to the end; the probes then poll only twice, so the task the
    agent accepted is still WORKING when the watch ends."""
    prober = Prober(Target(url, skill_id=SKILL, mode="poll"), ClientOptions(poll_interval=0.05))
    try:
        await prober.learn()
        prober.options = dataclasses.replace(prober.options, poll_max=2)
        return await prober.run()
    finally:
        await prober.aclose()


@pytest.mark.parametrize("cancellable", [True, False], ids=["declared", "not-declared"])
async def test_an_accepted_probe_task_still_working_is_cancelled_where_declared(
    reference_agent: StartAgent, monkeypatch: pytest.MonkeyPatch, cancellable: bool
) -> None:
    monkeypatch.setattr(documents, "SKILLS", _long_running_with_a_size_limit(cancellable))
    agent = reference_agent(fault="ignores-max-input", step_delay=1.0)
    report = await _probe_in_poll_mode(agent.url)
    assert report.learned and report.mode == "poll"
    by_id = {r.id: r for r in report.results}
    oversized = by_id["oversized-input"]
    assert oversized.grade is Grade.FAIL
    assert oversized.observed is not None
    assert oversized.observed.state == "TASK_STATE_WORKING"
    assert "accepted the request: the task is TASK_STATE_WORKING" in oversized.reason
    purposes = [e.purpose for e in report.exchanges if e.seq in oversized.exchanges]
    if cancellable:
        assert oversized.observed.cancel == "CancelTask sent: the task is now TASK_STATE_CANCELED"
        assert purposes[-1] == "probe oversized-input (cancel)"
    else:
        assert oversized.observed.cancel == (
            "CancelTask not sent: This skill is not cancellable: its document does not declare it."
        )
        assert "probe oversized-input (cancel)" not in purposes
    # Every probe the agent rejected left no task running: nothing to cancel there.
    assert all(not r.observed.cancel for r in report.results if r.observed and r is not oversized)
    entry = next(p for p in probe_to_json(report)["probes"] if p["id"] == "oversized-input")
    assert entry["observed"]["cancel"] == oversized.observed.cancel
