"""The chaining screen: verdict, identity fields and the side-by-side diff (Pilot tests)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Input, Static

from sia_tui.agent.catalog import SKILLS_BY_ID
from sia_tui.agent.documents import assemble
from sia_tui.core.interface.composition import check_composition
from sia_tui.core.interface.document_diff import diff_documents
from sia_tui.core.jsonkit.canonical import digest_of
from sia_tui.tui.screens.compose import ComposePanel
from tests.support.compose_docs import reservation_v1, reservation_v1_1_breaking
from tests.support.documents import threshold_meaning_pair

Agent = Callable[..., Any]


class ComposeApp(App[None]):
    """Hosts the panel alone (the TUI's Compose mode is a screen around it)."""

    def compose(self) -> ComposeResult:
        yield ComposePanel()


def _text(widget: Static) -> str:
    return str(widget.content)


def _column(table: DataTable[Any], index: int) -> list[str]:
    return [str(table.get_row_at(r)[index]) for r in range(table.row_count)]


async def test_look_alike_verdict_shows_which_fields_differ() -> None:
    docs = {
        k: assemble(SKILLS_BY_ID[k], digest_of)
        for k in ("measure_link_capacity", "admit_traffic_demand")
    }
    verdict = check_composition(docs["measure_link_capacity"], docs["admit_traffic_demand"])
    async with ComposeApp().run_test(size=(140, 50)) as pilot:
        screen = pilot.app.query_one(ComposePanel)
        screen.show_verdict(verdict)
        await pilot.pause()
        panel = screen.query_one("#verdict", Static)
        assert "schema_uri, digest differ" in _text(panel)  # RULES CMP2
        assert "Looking alike is not enough" in _text(panel)
        assert panel.has_class("refused")
        table = screen.query_one("#fields", DataTable)
        assert _column(table, 3) == ["✘ differs", "✔ equal", "✔ equal", "✘ differs"]


async def test_diff_shows_old_and_new_side_by_side() -> None:
    diff = diff_documents(reservation_v1(), reservation_v1_1_breaking())
    async with ComposeApp().run_test(size=(140, 50)) as pilot:
        screen = pilot.app.query_one(ComposePanel)
        screen.show_diff(diff)
        await pilot.pause()
        table = screen.query_one("#changes", DataTable)
        assert "input tenant_id member" in _column(table, 1)
        assert '["queued"]' in _column(table, 3)  # B's side of the output enum change, as JSON
        version = _text(screen.query_one("#version", Static))
        assert "breaking change but minor bump" in version  # RULES SID2


async def test_diff_flags_a_change_of_meaning_for_review() -> None:
    """The threshold's description turns percent into ratio: compatible, and flagged."""
    diff = diff_documents(*threshold_meaning_pair())
    async with ComposeApp().run_test(size=(140, 50)) as pilot:
        screen = pilot.app.query_one(ComposePanel)
        screen.show_diff(diff)
        await pilot.pause()
        assert "1 to review: meaning may have changed" in _text(
            screen.query_one("#verdict", Static)
        )
        why = _column(screen.query_one("#changes", DataTable), 4)
        assert any("review: meaning may have changed: the description" in w for w in why)


async def test_agent_text_is_shown_literally() -> None:
    up, down = reservation_v1(), reservation_v1()
    up["skill_id"] = "[bold red]evil[/]\x1b[2J"
    async with ComposeApp().run_test(size=(140, 50)) as pilot:
        screen = pilot.app.query_one(ComposePanel)
        screen.show_verdict(check_composition(up, down))
        await pilot.pause()
        text = _text(screen.query_one("#verdict", Static))
        assert "[bold red]evil[/]␛[2J" in text and "\x1b" not in text


async def test_compose_button_fetches_both_skills(reference_agent: Agent) -> None:
    url = reference_agent().url
    async with ComposeApp().run_test(size=(140, 50)) as pilot:
        screen = pilot.app.query_one(ComposePanel)
        for widget_id, value in (
            ("left-card", url),
            ("left-skill", "measure_available_bandwidth"),
            ("right-card", url),
            ("right-skill", "admit_traffic_demand"),
        ):
            screen.query_one(f"#{widget_id}", Input).value = value
        await pilot.press("f5")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.verdict is not None and screen.verdict.allowed  # RULES CMP1
        assert screen.verdict.upstream_task_id != screen.verdict.downstream_task_id  # INV12
        assert "direct composition allowed" in _text(screen.query_one("#verdict", Static))
        screen.query_one("#right-skill", Input).value = "no_such_skill"
        await pilot.press("f6")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "B: step 2" in _text(screen.query_one("#verdict", Static))


async def test_compose_reads_two_document_files(tmp_path: Path) -> None:
    """Two vendors' documents that arrived as files: the verdict, as for live agents; a
    JUnit file instead says which command reads it."""
    names = ("measure_available_bandwidth", "admit_traffic_demand")
    paths = []
    for name in names:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(assemble(SKILLS_BY_ID[name], digest_of)))
        paths.append(str(path))
    async with ComposeApp().run_test(size=(140, 50)) as pilot:
        screen = pilot.app.query_one(ComposePanel)
        values = (paths[0], names[0], paths[1], names[1])
        for widget_id, value in zip(
            ("left-card", "left-skill", "right-card", "right-skill"), values, strict=True
        ):
            screen.query_one(f"#{widget_id}", Input).value = value
        await pilot.press("f5")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.verdict is not None and screen.verdict.allowed
        junit = tmp_path / "report.xml"
        junit.write_text('<?xml version="1.0"?><testsuites><testsuite/></testsuites>')
        screen.query_one("#left-card", Input).value = str(junit)
        await pilot.press("f5")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        text = _text(screen.query_one("#verdict", Static))
        assert "is a JUnit XML report" in text and "no callable interface" not in text
