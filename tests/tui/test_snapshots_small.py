"""Snapshot tests at 80x24, a laptop split at a plugfest: every screen, nothing cut.

Each docstring says what a person should see. In every one the tab bar at the top shows all
nine keys (short titles, the current screen's in full) and the footer's keys end before
``^p palette``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from sia_tui.core.run import Target
from sia_tui.tui.storage import UserDirs
from tests.support.scripted_agent import BASE, citing_five_records
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SMALL,
    enter_arguments,
    invoke_appendix_b,
    send_on_console,
    settle,
    snapshot_app,
    snapshot_scrub,
)

#: Every frame drawn, as a terminal would: the picture a snapshot keeps must be the one a
#: terminal shows after all the frames before it (tests/support/frames.py).
pytestmark = pytest.mark.frames


def keys(*names: str) -> Any:
    """A run_before that presses ``names``, settling after each."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for name in names:
            await pilot.press(name)
            await settle(pilot)

    return run_before


def test_small_overview(snap_compare: Any, make_app: Any) -> None:
    """The card on the left and the skill list on the right, each half the width; the list
    has the focus with ● Evaluate resource condition highlighted; describe_skill is dimmed
    and marked as the extension's own skill."""
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=keys())


def test_small_steps_with_a_failure(snap_compare: Any, make_app: Any) -> None:
    """digest-card: step 4 red and highlighted in a list whose titles end in …; the evidence
    on the right names the failure, code interface_invalid, origin local, At fault."""
    assert snap_compare(make_app("digest-card"), terminal_size=SMALL, run_before=keys("2", "r"))


def test_small_digests_mismatch(snap_compare: Any, make_app: Any) -> None:
    """The verdict column comes before the digest: '✘ ≠ both' on the advertised row and
    '✔ = computed' / '✔ = returned' are on screen; the digests end at the right edge; the
    Three-way and Forensics lines, the schema table, and the panes titled 'Pretty JSON: the
    document' and 'JCS bytes (RFC 8785): the document' below."""
    assert snap_compare(
        make_app("digest-card"), terminal_size=SMALL, run_before=keys("2", "r", "3")
    )


def test_small_document(snap_compare: Any, make_app: Any) -> None:
    """The document tree on the left (labels cut with …), input_schema selected and readable
    on the right."""
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=keys("2", "r", "4", "down"))


def test_small_invoke_with_an_error(snap_compare: Any, make_app: Any) -> None:
    """One line of options ('response mode (f8) sync ▼', the send-anyway box), the editor
    filling the screen with its key hint in the bottom border, the red verdict '✘ 1
    problem(s)…' and the Problems table with /condition/threshold, its message wrapped
    whole on two lines ('"eighty" is not of type' / '"number"'; expected and actual left
    out at 80 columns). At 24 rows the table keeps 6 rows, one blank under the problem."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await keys("2", "r")(pilot)
        await enter_arguments(pilot, APPENDIX_B_TEXT.replace("80", '"eighty"'))
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_small_results_record_invalid(snap_compare: Any, make_app: Any) -> None:
    """record-invalid: the task line, then '✘ step 10 output_invalid (local): supporting
    record …' in red; the result pane '✔ valid against the output schema', the records pane
    '✘ does not validate against its record schema'."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await keys("2", "r")(pilot)
        await enter_arguments(pilot, APPENDIX_B_TEXT)
        await pilot.press("ctrl+j")
        await settle(pilot)

    assert snap_compare(make_app("record-invalid"), terminal_size=SMALL, run_before=run_before)


def test_small_results_with_five_record_links(snap_compare: Any, user_dirs: UserDirs) -> None:
    """An answer citing five records: under 'supporting_record_refs', an orange → then
    'urn:noc:observation:edge-router-01/ge-0/0/1:utilization:samp' over two lines and 'le'
    on the third (the reference whole, beside the list's scroll bar); the result's JSON
    below, the five records on the right."""
    app = snapshot_app(Target(BASE), engine_factory=citing_five_records().engine, dirs=user_dirs)
    assert snap_compare(app, terminal_size=SMALL, run_before=_invoked)


async def _invoked(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await invoke_appendix_b(pilot)


def test_small_history(snap_compare: Any, make_app: Any) -> None:
    """One autosaved row: <time>, agent 'sia-tui reference agent' (cut), the skill, outcome
    failed, step 4; no target column at 80 columns (the header has it); above the footer,
    'm: serve the selected run as a mock agent on 127.0.0.1 (sia-tui mock)' whole; the footer
    offers Open, Reattach, Delete, Reload, Back and Help, none cut."""
    assert snap_compare(
        make_app("digest-card"), terminal_size=SMALL, run_before=keys("2", "r", "7")
    )


def test_small_compose(snap_compare: Any, make_app: Any) -> None:
    """Two one-line rows 'up / A' and 'down / B' with the agent, the whole skill id and a
    skills picker; the buttons; the red composition verdict below."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await keys("8")(pilot)
        screen = pilot.app.screen
        screen.query_one("#left-skill", Input).value = "measure_link_capacity"
        screen.query_one("#right-skill", Input).value = "admit_traffic_demand"
        await pilot.press("f5")
        await settle(pilot)
        for side in ("left", "right"):
            field = screen.query_one(f"#{side}-card", Input)
            field.value = snapshot_scrub(field.value)
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_small_console_on_a_plain_agent(
    snap_compare: Any, echo_agent_url: str, user_dirs: UserDirs
) -> None:
    """The console on an a2a-sdk agent without the extension: skill Echo, part data, mode
    stream; the task COMPLETED line and the interface used; the raw reply (its wire verdict
    'wire (A2A 1.0): ok', then the response) on the left, the echo artifact on the right."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await keys("0")(pilot)
        await send_on_console(pilot, '{"hello": "plugfest"}', part="data", mode="stream")

    app = snapshot_app(Target(echo_agent_url), dirs=user_dirs)
    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_small_connect_dialog(snap_compare: Any, make_app: Any) -> None:
    """The connect dialog fills the width with one-line fields (card, binding, TLS,
    headers, bearer, secret values) and its two buttons on screen."""
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=keys("c"))


def test_connect_dialog_at_100x30(snap_compare: Any, make_app: Any) -> None:
    """At 100x30 the dialog is centred, 90 wide, every field and both buttons visible."""
    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=keys("c"))


def test_small_help(snap_compare: Any, make_app: Any) -> None:
    """F1 over the Steps screen: the help dialog uses the whole width, the keys table
    scrolls."""
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=keys("2", "f1"))


def test_small_probe(snap_compare: Any, make_app: Any) -> None:
    """Mode 9 at 80x24 after p against the ignores-max-input agent: the tally line, the
    probe list (names cut with …) with the failing oversized-input selected, and its verdict
    on the right."""
    assert snap_compare(
        make_app("ignores-max-input"), terminal_size=SMALL, run_before=keys("9", "p", "end", "up")
    )


def test_small_fuzz(snap_compare: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mode 9 at 80x24 after f against the rejects-boundary agent (12 examples, seed 3): the
    'Fuzz ... failed' tally, the case list (cut with …) with the red ✘ #1 valid selected,
    and on the right the shrunk failure: RULES INV3, valid-refused and its arguments."""
    from sia_tui.tui.screens import probe as probe_screen

    monkeypatch.setattr(probe_screen, "FUZZ_EXAMPLES", 12)
    monkeypatch.setattr(probe_screen, "FUZZ_RATE", 1000.0)
    monkeypatch.setattr(probe_screen, "FUZZ_SEED", 3)
    assert snap_compare(
        make_app("rejects-boundary"), terminal_size=SMALL, run_before=keys("9", "f")
    )


def test_small_save_dialog_with_nothing_to_redact(snap_compare: Any, make_app: Any) -> None:
    """ctrl+s after steps 1-6, nothing secret in the run: the save dialog in a thick accent
    frame over the Steps screen, as tall as what it says: 'Save session to (edit the path
    if you like):', the path field holding ./run.session.json, 'No secrets were found to
    redact.', then Save (y) and Cancel (n), one blank row and the frame's bottom edge; the
    step list and the footer show below it."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await keys("2", "r", "ctrl+s")(pilot)
        pilot.app.screen.query_one("#destination", Input).value = "./run.session.json"
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)
