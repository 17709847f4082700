"""The Matrix screen: the plugfest table filling in, a cell's run opened read-only, export."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static

from sia_tui.core.matrix import CellStatus, load_plugfest
from sia_tui.tui.matrix_app import MatrixApp
from sia_tui.tui.screens.matrix import MatrixLaunch, MatrixMode
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from tests.support.agents import StartAgent
from tests.support.otlp import parse_otlp_protobuf
from tests.support.otlp_collector import fake_collector
from tests.support.plugfest import COMPOSABLE, EVALUATE, EXPECT_B, sample_plugfest
from tests.support.tui import SIZE, record_notices, settle, snapshot_scrub, wait_until

ONE_MODE = 'modes = ["sync"]'


SKILL = "evaluate_resource_condition"


@pytest.fixture
def make_matrix_app(
    reference_agent: StartAgent, user_dirs: UserDirs, tmp_path: Path
) -> Callable[..., MatrixApp]:
    """``make_matrix_app(agents, skills, head)``: the app in plugfest mode over a sample
    plugfest (see ``sample_plugfest``), sessions in tmp_path/sessions."""

    def build(*args: Any, **kwargs: Any) -> MatrixApp:
        path = sample_plugfest(tmp_path, reference_agent, *args, **kwargs)
        launch = MatrixLaunch(load_plugfest(path, {}), tmp_path / "sessions")
        app = MatrixApp(launch, dirs=user_dirs, scrub=snapshot_scrub)
        app.animation_level = "none"
        return app

    return build


def _screen(pilot: Pilot[Any]) -> MatrixMode:
    screen = pilot.app.screen
    assert isinstance(screen, MatrixMode)
    return screen


def _done(pilot: Pilot[Any]) -> bool:
    matrix = _screen(pilot).matrix
    return matrix is not None and matrix.finished


async def _finished(pilot: Pilot[Any]) -> None:
    await wait_until(pilot, lambda: _done(pilot))
    await settle(pilot)


async def _on_cell(pilot: Pilot[Any], agent: str, skill: str, column: str) -> None:
    """Put the cursor on a cell."""
    screen = _screen(pilot)
    assert screen.matrix is not None
    row = next(i for i, r in enumerate(screen.matrix.rows) if (r.agent, r.skill) == (agent, skill))
    keys = ["agent", "skill", "steps", *(c.key for c in screen.matrix.verdict_columns)]
    screen.query_one("#matrix", DataTable).cursor_coordinate = Coordinate(row, keys.index(column))
    await pilot.pause()


async def test_the_table_fills_in_and_a_cell_opens_its_run_read_only(
    make_matrix_app: Callable[..., MatrixApp],
) -> None:
    agents = {"vendor-a": None, "vendor-b": "digest-card"}
    matrix_app = make_matrix_app(agents, EVALUATE + EXPECT_B, ONE_MODE)
    async with matrix_app.run_test(size=SIZE) as pilot:
        await _finished(pilot)
        screen = _screen(pilot)
        assert screen.matrix is not None
        rows = [(r.agent, r.skill) for r in screen.matrix.rows]
        assert rows == [("vendor-a", SKILL), ("vendor-b", SKILL)]
        table = screen.query_one("#matrix", DataTable)
        assert [str(table.get_cell_at(Coordinate(0, n))) for n in (3, 4)] == ["✔", "✔"]
        assert [str(table.get_cell_at(Coordinate(1, n))) for n in (2, 3, 4)] == [
            "✔✔✔✘–––––––",
            "✘ 4 exp",
            "✘ 4 exp",
        ]
        await _on_cell(pilot, "vendor-b", SKILL, "HTTP+JSON/sync")
        panel = str(screen.query_one("#matrix-detail", Static).visual)
        assert "EXPECTED FAILURE at step 4, interface_invalid (local)" in panel
        assert "Baseline: ticket 12: a stale digest" in panel

        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, StepsScreen))
        await settle(pilot)
        assert matrix_app.read_only
        run = matrix_app.current_run
        assert run is not None and run.failed_step is not None and run.failed_step.step == 4
        assert run.target.binding == "http-json"

        await pilot.press("escape")
        await pilot.pause()
        assert matrix_app.current_mode == "matrix" and pilot.app.screen is screen


def _palette_prompts(pilot: Pilot[Any]) -> list[str]:
    """The commands the open palette lists for what was typed."""
    lists = pilot.app.screen.query("CommandList")
    if not lists:
        return []
    options = lists.first(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_a_cell_without_a_run_says_so_and_the_palette_goes_back_to_the_matrix(
    make_matrix_app: Callable[..., MatrixApp],
) -> None:
    """vendor-d speaks only JSONRPC (A2A 0.3): its HTTP+JSON cells did not run, and Enter on
    one says so. Then, in the same app (one plugfest run serves both journeys), plugfest
    mode's extra Matrix mode is in its command palette: typed "matrix" from a cell's Steps
    screen, the palette finds "mode: matrix", and enter goes back to the matrix."""
    matrix_app = make_matrix_app({"vendor-d": "v03"}, EVALUATE, ONE_MODE)
    async with matrix_app.run_test(size=SIZE) as pilot:
        await _finished(pilot)
        told = record_notices(matrix_app)
        await _on_cell(pilot, "vendor-d", SKILL, "HTTP+JSON/sync")
        cell = _screen(pilot).matrix.rows[0].cells["HTTP+JSON/sync"]  # type: ignore[union-attr]
        assert cell.status is CellStatus.SKIP
        await pilot.press("enter")
        await pilot.pause()
        assert told == ["This cell has no session: no run was needed for it."]
        assert matrix_app.current_mode == "matrix"

        await pilot.press("2")
        await wait_until(pilot, lambda: matrix_app.current_mode == "steps")
        matrix_app.action_command_palette()
        await pilot.pause()
        await pilot.press(*"matrix")
        await wait_until(pilot, lambda: any("mode: matrix" in p for p in _palette_prompts(pilot)))
        prompts = _palette_prompts(pilot)
        for _ in range(next(i for i, p in enumerate(prompts) if "mode: matrix" in p)):
            await pilot.press("down")
        await pilot.press("enter")
        await wait_until(pilot, lambda: matrix_app.current_mode == "matrix")


async def test_the_panel_hint_then_composition_and_export(
    make_matrix_app: Callable[..., MatrixApp], tmp_path: Path
) -> None:
    """Two vendors with the composable pair: each one's bandwidth feeds the other's admission.
    One plugfest run serves both journeys. First, the finished matrix opens with a hint in
    its bottom panel, never a composition pair (the hidden composition table highlights its
    first pair when it is filled); a move shows the chosen cell's verdict. Then c shows the
    composition table and x exports it."""
    head = ONE_MODE + '\nbindings = ["JSONRPC"]'
    matrix_app = make_matrix_app({"vendor-a": None, "vendor-e": None}, COMPOSABLE, head)
    async with matrix_app.run_test(size=SIZE) as pilot:
        await _finished(pilot)
        screen = _screen(pilot)
        hint = str(screen.query_one("#matrix-detail", Static).visual)
        assert hint.startswith("Choose a cell with the arrow keys")
        assert "→" not in hint and "composes" not in hint
        await pilot.press("right", "right", "right")
        chosen = str(screen.query_one("#matrix-detail", Static).visual)
        assert chosen.startswith("vendor-a · measure_available_bandwidth · JSONRPC sync  PASS")

        await pilot.press("c")
        composition = screen.query_one("#composition", DataTable)
        assert composition.display and not screen.query_one("#matrix", DataTable).display
        rows = [
            [str(c) for c in composition.get_row_at(n)[:3]] for n in range(composition.row_count)
        ]
        assert rows[:2] == [
            [
                "vendor-a · measure_available_bandwidth",
                "vendor-e · admit_traffic_demand",
                "✔ composes",
            ],
            [
                "vendor-e · measure_available_bandwidth",
                "vendor-a · admit_traffic_demand",
                "✔ composes",
            ],
        ]
        assert len(rows) == 8 and {r[2] for r in rows[2:]} == {"✘ not allowed"}
        panel = screen.query_one("#matrix-detail", Static)
        assert str(panel.visual).startswith(
            "vendor-a · measure_available_bandwidth → vendor-e · admit_traffic_demand  ✔ composes"
        )
        await pilot.press("down", "down")
        assert "Differ: schema_uri, digest" in str(panel.visual)
        await pilot.press("x")
        await settle(pilot)
        folder = tmp_path / "sessions"
        for name in ("matrix.html", "matrix.md", "matrix.json", "matrix.junit.xml"):
            assert (folder / name).is_file(), name
        assert "IETF hackathon table 7" in (folder / "matrix.html").read_text(encoding="utf-8")


async def test_the_composition_view_counts_the_pairs_it_does_not_list(
    make_matrix_app: Callable[..., MatrixApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the core's limit of pairs the composition table ends with a row saying how many
    more pairs were not judged (here the limit is 3 of 8)."""
    from sia_tui.core.matrix import composition, matrix_runner

    monkeypatch.setattr(
        matrix_runner,
        "composition_table",
        lambda rows: composition.composition_table(rows, limit=3),
    )
    head = ONE_MODE + '\nbindings = ["JSONRPC"]'
    matrix_app = make_matrix_app({"vendor-a": None, "vendor-e": None}, COMPOSABLE, head)
    async with matrix_app.run_test(size=SIZE) as pilot:
        await _finished(pilot)
        await pilot.press("c")
        table = _screen(pilot).query_one("#composition", DataTable)
        last = [str(c) for c in table.get_row_at(table.row_count - 1)]
    assert table.row_count == 4
    assert last[0] == "…" and last[3] == "5 more pairs are not judged: at most 3 are"


def test_matrix_screen_snapshot(
    snap_compare: Any, make_matrix_app: Callable[..., MatrixApp]
) -> None:
    """Plugfest 'IETF hackathon table 7', 72/72 cells and the counts on the title line, then
    in red 'NEW FAILURES: 4 new failure(s); 6 expected failure(s)'. Twelve rows (vendor-a..d
    × three skills);
    'steps 1-11' as eleven coloured marks (vendor-b's evaluate_resource_condition:
    ✔✔✔✘ then grey dashes); two-line headings JSONRPC/HTTP+JSON over sync/stream/poll;
    vendor-b's first row reads '✘ 4 exp' in yellow everywhere, vendor-c's
    evaluate_resource_condition '✘ 10' in red, poll '–' where the skill does not declare it,
    vendor-d's HTTP+JSON cells '–'. The cursor is on vendor-c's JSONRPC sync cell; the panel
    below says 'FAIL at step 10, output_invalid (local)', 'At fault: agent: the result does not
    validate against the output schema' and the session file name with '(Enter opens it
    read-only)'."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _finished(pilot)
        await _on_cell(pilot, "vendor-c", "evaluate_resource_condition", "JSONRPC/sync")

    assert snap_compare(make_matrix_app(), terminal_size=SIZE, run_before=run_before)


def test_matrix_screen_opens_with_a_hint_snapshot(
    snap_compare: Any, make_matrix_app: Callable[..., MatrixApp]
) -> None:
    """The same finished plugfest as it opens, before any cell is chosen: the cursor on
    vendor-a's first row, and the panel below reads 'Choose a cell with the arrow keys to see
    its verdict and who is at fault; Enter opens its run, c the composition table.' (no
    composition pair, no cell's verdict)."""
    assert snap_compare(make_matrix_app(), terminal_size=SIZE, run_before=_finished)


def test_matrix_screen_at_80x24(
    snap_compare: Any, make_matrix_app: Callable[..., MatrixApp]
) -> None:
    """The same plugfest at 80x24: the tab bar with 'm Matrix' highlighted, the title and
    verdict lines, the table (agent, skill, steps and the first verdict columns; the rest
    scroll), the selected cell's panel and the footer keys, none cut."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _finished(pilot)
        await _on_cell(pilot, "vendor-c", "evaluate_resource_condition", "JSONRPC/sync")

    assert snap_compare(make_matrix_app(), terminal_size=(80, 24), run_before=run_before)


async def test_a_probe_cell_opens_its_grades_on_the_probe_screen(
    make_matrix_app: Callable[..., MatrixApp],
) -> None:
    """Each probe cell shows its own report: the second one opened replaces the first."""
    from sia_tui.tui.screens.probe import ProbeScreen

    head = ONE_MODE + '\nbindings = ["JSONRPC"]\nprobe = true'
    agents = {"vendor-a": None, "vendor-s": "accepts-stale"}
    matrix_app = make_matrix_app(agents, EVALUATE, head)
    async with matrix_app.run_test(size=SIZE) as pilot:
        await _finished(pilot)
        summaries = []
        for agent in ("vendor-s", "vendor-a"):
            await _on_cell(pilot, agent, SKILL, "probe")
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ProbeScreen))
            await settle(pilot)
            summaries.append(str(pilot.app.screen.query_one("#probe-summary", Static).visual))
            await pilot.press("escape")
            await wait_until(pilot, lambda: matrix_app.current_mode == "matrix")
        assert "1 fail" in summaries[0]
        assert "0 fail" in summaries[1]


async def test_quitting_while_cells_run_ends_promptly(
    make_matrix_app: Callable[..., MatrixApp],
) -> None:
    """The slow agent holds every A2A call for 2 s; quitting cancels the runs, no hang."""
    import time

    matrix_app = make_matrix_app({"vendor-s": "slow"}, EVALUATE, ONE_MODE + "\ndeadline = 30")
    async with matrix_app.run_test(size=SIZE) as pilot:
        screen = _screen(pilot)
        # Not wait_until: it waits for the workers, and the running matrix worker is the point.
        for _ in range(500):
            if screen.matrix is not None and screen.matrix.rows:
                break
            await pilot.pause(0.02)
        assert screen.matrix is not None and screen.matrix.rows
        started = time.monotonic()
        await pilot.press("ctrl+q")
    assert time.monotonic() - started < 10  # "it ends", not "it is fast"
    assert matrix_app.return_code in (0, None)


@pytest.mark.parametrize(("size", "whole"), [((140, 40), True), ((80, 24), False)])
async def test_a_wide_terminal_gives_its_free_width_to_agent_and_skill_names(
    make_matrix_app: Callable[..., MatrixApp], size: tuple[int, int], whole: bool
) -> None:
    """At 140 columns "vendor-alpha-networks" and "measure_available_bandwidth" read whole
    (the verdict columns leave room); at 80 they are cut to give the verdicts the width."""
    agents = {"vendor-alpha-networks": None}
    matrix_app = make_matrix_app(agents, COMPOSABLE, ONE_MODE)
    async with matrix_app.run_test(size=size) as pilot:
        await _finished(pilot)
        table = _screen(pilot).query_one("#matrix", DataTable)
        widths = {str(key.value): column.width for key, column in table.columns.items()}
        names = {"agent": "vendor-alpha-networks", "skill": "measure_available_bandwidth"}
        for key, name in names.items():
            assert (widths[key] >= len(name)) is whole, (key, widths)
        assert table.virtual_size.width <= table.scrollable_content_region.width + 2 or not whole


async def test_the_matrix_screen_exports_each_run_to_the_users_collector(
    reference_agent: StartAgent, user_dirs: UserDirs, tmp_path: Path
) -> None:
    """``sia-tui matrix --otlp-endpoint`` opens this screen: each run is exported through
    the OpenTelemetry SDK as it ends, with the trace id its saved session records."""
    path = sample_plugfest(tmp_path, reference_agent, {"vendor-a": None}, EVALUATE, ONE_MODE)
    with fake_collector() as collector:
        launch = MatrixLaunch(
            load_plugfest(path, {}), tmp_path / "sessions", otlp_endpoint=collector.url
        )
        matrix_app = MatrixApp(launch, dirs=user_dirs, scrub=snapshot_scrub)
        matrix_app.animation_level = "none"
        async with matrix_app.run_test(size=SIZE) as pilot:
            await _finished(pilot)
    saved = sorted((tmp_path / "sessions").rglob("*.session.json"))
    traces = {json.loads(p.read_text(encoding="utf-8"))["run"]["trace_id"] for p in saved}
    exported = [parse_otlp_protobuf(r.body) for r in collector.received]
    # One export per run, one trace each (a run the matrix does not save is exported too).
    runs = [{s.trace_id.hex() for s in e.resource_spans[0].scope_spans[0].spans} for e in exported]
    assert len(saved) >= 2 and all(len(trace) == 1 for trace in runs)
    assert traces <= set().union(*runs)
