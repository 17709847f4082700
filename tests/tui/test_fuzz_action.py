"""Pilot tests of the Fuzz action on the Probe screen (9, then f): the same engine as
`sia-tui fuzz`, run in a worker, its cases shown literally, the execute gate asked."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from sia_tui.core.fuzz import CaseKind, FindingKind, FuzzReport
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens import probe as probe_screen
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.screens.probe import ProbeScreen
from tests.support.tui import SIZE, settle, static_text, wait_until


@pytest.fixture(autouse=True)
def quick_fuzz(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short, unpaced run: the pace is tested on the engine (tests/fuzz/test_bounds.py)."""
    monkeypatch.setattr(probe_screen, "FUZZ_EXAMPLES", 12)
    monkeypatch.setattr(probe_screen, "FUZZ_RATE", 1000.0)


def _fuzz(app: SiaApp) -> FuzzReport | None:
    screen = app.screen
    assert isinstance(screen, ProbeScreen)
    return screen.fuzz


def _done(app: SiaApp) -> bool:
    report = _fuzz(app)
    return report is not None and bool(report.runs or report.skipped)


async def _fuzz_from_probe_screen(pilot: Pilot[Any], app: SiaApp) -> FuzzReport | None:
    """Open Probe (9), press f and wait until the fuzz run is shown."""
    await settle(pilot)
    await pilot.press("9")
    await settle(pilot)
    await pilot.press("f")
    await wait_until(pilot, lambda: _done(app))
    await settle(pilot)
    return _fuzz(app)


async def test_f_fuzzes_the_skill_and_shows_the_shrunk_failure(make_app: Any) -> None:
    """rejects-boundary: the failing case is marked, its arguments and RULES INV3 shown."""
    app = make_app("rejects-boundary")
    async with app.run_test(size=SIZE) as pilot:
        report = await _fuzz_from_probe_screen(pilot, app)
        assert report is not None and report.outcome == "failed"
        [failure] = report.failures
        assert failure.finding is FindingKind.VALID_REFUSED
        listing = app.screen.query_one("#probe-list", OptionList)
        assert listing.option_count == len(report.cases)
        assert "failed" in static_text(app, "#probe-summary")
        listing.highlighted = report.cases.index(failure)
        await pilot.pause()
        evidence = static_text(app, "#probe-body")
        assert "Failure, shrunk to the smallest arguments" in evidence
        assert "RULES INV3" in evidence and "valid-refused" in evidence
        assert '"resource_id": "0"' in evidence


async def test_p_after_f_shows_the_probes_again(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        report = await _fuzz_from_probe_screen(pilot, app)
        assert report is not None and report.outcome == "passed"
        assert {c.kind for c in report.cases} == {CaseKind.VALID, CaseKind.INVALID}
        await pilot.press("p")
        await wait_until(pilot, lambda: _fuzz(app) is None)
        assert "Probe " in static_text(app, "#probe-summary")


async def test_an_execute_skill_is_fuzzed_only_after_a_yes(make_app: Any) -> None:
    """The one execute gate: n sends nothing (incomplete); y fuzzes."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.choose_skill("apply_interface_shutdown")
        await pilot.press("9")
        await settle(pilot)
        for answer, sent in (("n", False), ("y", True)):
            await pilot.press("f")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert "execute" in str(app.screen.query_one("Static").visual)
            await pilot.press(answer)
            await wait_until(pilot, lambda: isinstance(app.screen, ProbeScreen) and _done(app))
            await settle(pilot)
            report = _fuzz(app)
            assert report is not None and bool(report.cases) is sent
            assert report.outcome == ("passed" if sent else "incomplete")


async def test_the_summary_says_sending_until_the_run_has_ended(reference_agent: Any) -> None:
    """The line over the case list, as the Probe screen draws it on each update: while
    cases are sent it reads "sending…" with the tally so far, never "passed" (the next
    case may fail); once the run has ended, "passed"."""
    from sia_tui.core.a2a.options import ClientOptions
    from sia_tui.core.fuzz import Fuzzer, FuzzSettings
    from sia_tui.core.run import Target
    from sia_tui.tui.display import PLAIN
    from sia_tui.tui.render.fuzz import fuzz_summary

    drawn: list[str] = []
    fuzzer = Fuzzer(
        Target(reference_agent().url, skill_id="evaluate_resource_condition"),
        ClientOptions(),
        FuzzSettings(examples=6, seed=1, rate=1000.0),
        on_update=lambda report: drawn.append(fuzz_summary(report, PLAIN).plain),
    )
    try:
        await fuzzer.learn()
        report = await fuzzer.run()
    finally:
        await fuzzer.aclose()
    *sending, last = [line.splitlines()[0] for line in drawn if " pass" in line]
    assert sending and all("sending…" in line and "passed" not in line for line in sending)
    assert "passed" in last and "sending" not in last
    assert report.outcome == "passed"
