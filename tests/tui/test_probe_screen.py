"""Pilot tests of mode 9 (Probe): the same engine as `sia-tui probe`, run in a worker, with
a confirmation before valid invocations of an execute skill."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.probe.results import Grade, ProbeReport
from sia_tui.core.probe.session import save_probe_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.screens.probe import ProbeScreen
from sia_tui.tui.storage import UserDirs
from tests.support.probe import grades, probe
from tests.support.tui import (
    SIZE,
    read_only_app,
    record_notices,
    settle,
    static_text,
    wait_until,
)


def _shown(app: SiaApp) -> ProbeReport:
    screen = app.screen
    assert isinstance(screen, ProbeScreen) and screen.report is not None
    return screen.report


def _rows(app: SiaApp) -> list[str]:
    listing = app.screen.query_one("#probe-list", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def test_nine_opens_probe_and_p_grades_every_probe(make_app: Any) -> None:
    """The list shows the engine's grade for each probe; the failure says what should have
    come back, and the summary names the draft revision."""
    app = make_app("ignores-max-input")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("9")
        await settle(pilot)
        assert isinstance(app.screen, ProbeScreen)
        assert "p runs the probes" in static_text(app, "#probe-summary")
        await pilot.press("p")
        await wait_until(pilot, lambda: len(_shown(app).results) == 13)
        await settle(pilot)
        report = _shown(app)
        rows = _rows(app)
        assert [row.split()[2] for row in rows] == [r.id for r in report.results]
        assert [row.split()[1] for row in rows] == [r.grade.value for r in report.results]
        assert grades(report)["oversized-input"] == "fail"
        summary = static_text(app, "#probe-summary")
        assert "1 fail" in summary and "draft-huang-ainetops-agent-schema-interfaces-00" in summary
        listing = app.screen.query_one("#probe-list", OptionList)
        listing.highlighted = [r.id for r in report.results].index("oversized-input")
        await pilot.pause()
        evidence = static_text(app, "#probe-body")
        assert "It should have answered" in evidence and "constraint_rejected" in evidence
        assert "RULES ERR3" in evidence and "#" in evidence  # the exchange is shown


async def test_an_execute_skill_asks_before_valid_invocations(make_app: Any) -> None:
    """Cancel: the baseline and the probes needing valid arguments are skipped; yes: sent."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.choose_skill("apply_interface_shutdown")
        await pilot.press("9")
        await settle(pilot)
        for answer, baseline_ran in (("n", False), ("y", True)):
            await pilot.press("p")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert "execute" in str(app.screen.query_one("Static").visual)
            await pilot.press(answer)
            await wait_until(pilot, lambda: isinstance(app.screen, ProbeScreen))
            await settle(pilot)
            report = _shown(app)
            assert report.allow_valid_invocations is baseline_ran
            assert (report.learning.task is not None) is baseline_ran
            assert (report.baseline_skipped == "") is baseline_ran
            assert len(report.results) == 13 and report.outcome == "passed"


async def test_a_recorded_probe_session_shows_its_grades_read_only(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Path
) -> None:
    """A `probe --save` session opens read-only: the recorded grades, nothing sent."""
    recorded = await probe(reference_agent(fault="accepts-stale").url)
    path = tmp_path / "probe.session.json"
    save_probe_session(recorded, ClientOptions(), path)
    app = read_only_app(path, user_dirs)
    told = record_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("9")
        await settle(pilot)
        shown = _shown(app)
        assert grades(shown) == grades(recorded)
        assert [r.grade for r in shown.results].count(Grade.FAIL) == 1
        await pilot.press("p")
        await settle(pilot)
        assert any("read-only" in notice for notice in told)


async def test_the_palette_and_bindings_name_the_probe_mode(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "mode: probe" in titles
        assert "mode.probe" in {getattr(b, "id", None) for b in app.BINDINGS}


async def test_a_refused_baseline_is_said_and_nothing_is_probed(
    make_app: Any,
) -> None:
    """The mismatch agent refuses the valid baseline (step 8): no grade is shown, and the
    screen does not claim the interface was not learned (steps 1-6 learned it)."""
    app = make_app("mismatch")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("9", "p")
        await settle(pilot)
        report = _shown(app)
        assert report.outcome == "not_learned" and report.results == []
        assert _rows(app) == []
        evidence = static_text(app, "#probe-body")
        assert (
            "Steps 1-6 learned the interface, but the valid baseline invocation (steps 7-11) "
            "failed: step 8" in evidence
        )
        assert "not learned" not in evidence
        assert "No probe was sent" in evidence


async def test_ctrl_s_saves_the_probe_run_redacted_and_replay_regrades_it(
    reference_agent: Any, user_dirs: UserDirs, tmp_path: Path
) -> None:
    """On the Probe screen ctrl+s saves a session holding the probe run (previewed and
    redacted like every save); `sia-tui replay` re-grades it offline with the same grades."""
    import json

    from textual.widgets import DataTable, Input

    from sia_tui.core.probe.session import recorded_probe, replay_probes
    from sia_tui.core.run.read_model import Target
    from sia_tui.core.session import load_session
    from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen
    from tests.support.tui import snapshot_app

    bearer = "canary-bearer-probe-7c21e0"
    agent = reference_agent(fault="ignores-max-input")
    app = snapshot_app(Target(agent.url), ClientOptions(bearer=bearer), dirs=user_dirs)
    told = record_notices(app)
    saved = tmp_path / "probe.session.json"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("9", "p")
        await wait_until(pilot, lambda: len(_shown(app).results) == 13)
        await wait_until(pilot, lambda: any("Probes done" in m for m in told))
        shown = grades(_shown(app))
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, RedactionPreviewScreen))
        preview = app.screen
        table = preview.query_one("#redactions", DataTable)
        placeholders = {str(table.get_row_at(r)[0]) for r in range(table.row_count)}
        assert "«redacted:authorization»" in placeholders
        preview.query_one("#destination", Input).value = str(saved)
        preview.query_one("#save").focus()
        await pilot.press("y")
        await wait_until(pilot, lambda: any("probe.session.json" in m for m in told))
    text = saved.read_text(encoding="utf-8")
    assert bearer not in text and "«redacted:authorization»" in text
    assert json.loads(text)["format"] == "sia-session/6"
    record = recorded_probe(load_session(saved))
    assert record is not None
    assert {r.id: r.grade.value for r in record.results} == shown
    assert shown["oversized-input"] == "fail"
    # Replay answers each probe from its recorded bytes and grades it again: same grades.
    replayed = await replay_probes(load_session(saved))
    assert replayed is not None and replayed.same and not replayed.unmatched
    assert {r.id: r.grade.value for r in replayed.results} == shown
