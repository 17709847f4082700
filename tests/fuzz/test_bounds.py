"""The bounds a fuzz run keeps: the rate, the time limit, the user's stop, and values the
2020-12 validator refuses never sent. No wall clock: time is a fake the test advances."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from sia_tui.core.fuzz import fuzzer as fuzzer_module
from sia_tui.core.fuzz.strategies import valid_arguments
from sia_tui.core.schemas.validation import compile_schema
from tests.fuzz.test_fuzz_reference_agent import SKILL, fuzz
from tests.support.agents import StartAgent


class FrozenClock:
    """A monotonic clock that moves only when told to (or by ``step`` per reading)."""

    def __init__(self, step: float = 0.0) -> None:
        self.now, self.step = 1000.0, step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


async def test_the_rate_paces_each_invocation(
    reference_agent: StartAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--rate 2 on a clock that stands still: every send after the first waits 0.5 s."""
    waits: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(fuzzer_module, "time", FrozenClock())
    monkeypatch.setattr(fuzzer_module, "pace_sleep", no_sleep)
    report = await fuzz(reference_agent().url, examples=6, rate=2.0)
    sent = len(report.cases)
    assert sent >= 2
    assert waits == [pytest.approx(0.5 * n) for n in range(1, sent)]


async def test_past_the_time_limit_nothing_more_is_sent(
    reference_agent: StartAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each clock reading is 2 s later: past --max-time 15 the run stops within the first
    10 (valid) cases, after sending some, and says so."""
    monkeypatch.setattr(fuzzer_module, "time", FrozenClock(step=2.0))
    report = await fuzz(reference_agent().url, examples=20, max_time=15.0)
    assert 0 < len(report.cases) < 10
    assert report.stopped == "the time limit of 15 s passed"


async def test_a_stopped_run_is_incomplete_never_passed(reference_agent: StartAgent) -> None:
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.fuzz import Fuzzer, FuzzSettings
    from sia_tui.core.run import Target

    fuzzer = Fuzzer(
        Target(reference_agent().url, skill_id="measure_link_capacity"),
        ClientOptions(),
        FuzzSettings(examples=10, seed=1, rate=1000.0),
    )
    try:
        await fuzzer.learn()
        fuzzer.stop()
        report = await fuzzer.run()
    finally:
        await fuzzer.aclose()
    assert not report.cases and report.outcome == "incomplete"
    assert report.stopped == "stopped by the user"


async def test_a_run_still_sending_is_not_passed(reference_agent: StartAgent) -> None:
    """What each update shows while cases are sent (the TUI draws them): no case failed
    yet, and the outcome is incomplete, not passed (the next case may fail). Once the run
    has returned, it has ended and passed."""
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.fuzz import Fuzzer, FuzzReport, FuzzSettings
    from sia_tui.core.run import Target

    seen: list[tuple[int, bool, str]] = []

    def updated(report: FuzzReport) -> None:
        seen.append((len(report.cases), report.ended, report.outcome.value))

    fuzzer = Fuzzer(
        Target(reference_agent().url, skill_id=SKILL),
        ClientOptions(),
        FuzzSettings(examples=6, seed=1, rate=1000.0),
        on_update=updated,
    )
    try:
        await fuzzer.learn()
        report = await fuzzer.run()
    finally:
        await fuzzer.aclose()
    sending = [outcome for cases, ended, outcome in seen if cases and not ended]
    assert sending and set(sending) == {"incomplete"}, seen
    assert report.ended and report.outcome == "passed"
    assert seen[-1] == (len(report.cases), True, "passed")  # the last update is the end


def test_generated_values_the_2020_12_validator_refuses_are_not_kept() -> None:
    """dependentRequired is 2019-09+: the draft-07 generator ignores it, the validator
    does not; only values it accepts come out, and the refused ones are counted."""
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a"],
        "dependentRequired": {"a": ["b"]},
    }
    compiled = compile_schema(schema)
    refused: list[int] = []
    kept: list[Any] = []

    # About half the generated objects lack "b" and are filtered out, which is this test's
    # point; hypothesis's filter health check would fail it at random (the fuzzer, too,
    # suppresses every health check: sia_tui/core/fuzz/fuzzer.py).
    @settings(
        max_examples=30,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.filter_too_much],
    )
    @given(valid_arguments(compiled, 4096, lambda: refused.append(1)))
    def draw(value: Any) -> None:
        kept.append(value)

    draw()
    assert kept and all("b" in value for value in kept)
    assert refused


def test_values_are_bounded_in_size() -> None:
    compiled = compile_schema({"type": "string"})
    kept: list[str] = []

    @settings(max_examples=50, database=None, deadline=None)
    @given(valid_arguments(compiled, 8, lambda: None))
    def draw(value: str) -> None:
        kept.append(value)

    draw()
    assert kept and all(len(value.encode()) + 2 <= 8 for value in kept)
