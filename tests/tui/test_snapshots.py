"""Snapshot tests: what a person sees on each screen (120x36, sia-dark unless stated).

Every mode screen has the tab bar at the top (all nine keys, the current screen
highlighted, '^s save  F1 keys' at the right) and a footer with only its own keys and F1.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.session import save_session
from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from tests.support.tui import (
    APPENDIX_B_TEXT,
    SIZE,
    enter_arguments,
    read_only_app,
    record_run,
    settle,
    snapshot_app,
    snapshot_scrub,
    wait_until,
)

#: Every frame drawn, as a terminal would: the picture a snapshot keeps must be the one a
#: terminal shows after all the frames before it (tests/support/frames.py).
pytestmark = pytest.mark.frames


async def _ran_six_steps(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("2", "r")
    await settle(pilot)


def test_overview_shows_card_and_skill_picker(snap_compare: Any, make_app: Any) -> None:
    """The reference agent's card on the left (name, interfaces with [JSONRPC 1.0] and
    [HTTP+JSON 1.0] badges, capabilities, security schemes, the extension's skills with
    version and digest); the skill list on the right with evaluate_resource_condition marked
    ●. The header reads 127.0.0.1:PORT (no real port)."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=settle)


def test_steps_after_r_show_six_green_steps(snap_compare: Any, make_app: Any) -> None:
    """Steps 1-6 with green ✔, steps 7-11 grey · (no arguments yet); step 1's evidence on
    the right: the card exchange with request/response headers and the highlighted body."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_ran_six_steps)


def test_steps_show_a_wire_error_on_the_card_exchange(snap_compare: Any, make_app: Any) -> None:
    """The wire-missing-member fault: steps 1-6 still green ✔ (a wire error changes no
    verdict); step 1 selected, its card exchange under Exchanges (1) reads 'wire (A2A 1.0):
    1 error' in red, then 'error response /defaultOutputModes AgentCard
    (AgentCard.default_output_modes): required member 'defaultOutputModes' is missing'."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("home")
        await settle(pilot)

    assert snap_compare(make_app("wire-missing-member"), terminal_size=SIZE, run_before=run_before)


def test_digest_card_fault_highlights_failed_step_four(snap_compare: Any, make_app: Any) -> None:
    """Step 4 in red ✘ and highlighted; steps 5-11 skipped ⊘. The evidence says the card's
    advertised digest differs from both, code interface_invalid, origin local (found here),
    its meaning, 'At fault: agent ...', 'What to do next: ... (press 3 for the digest
    table)', the one finding at "" (root), then the typed evidence (kind digests)."""
    assert snap_compare(make_app("digest-card"), terminal_size=SIZE, run_before=_ran_six_steps)


def test_digest_inspector_three_way_table(snap_compare: Any, make_app: Any) -> None:
    """Three interface digest rows all '✔ match' in green, the embedded schemas table with
    declared/computed pairs, and at the bottom the pretty document beside its canonical JCS
    bytes with a byte count."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("3")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_digest_inspector_mismatch_in_red(snap_compare: Any, make_app: Any) -> None:
    """With the digest-card fault the 'advertised in card' row reads '✘ ≠ both' in red (its
    last character underlined) while returned and computed read '✔ = computed' and
    '✔ = returned'; the Three-way line names the card's advertised digest as the odd one out
    and a Forensics line explains it; the schema table's title says step 6 did not run."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("3")
        await settle(pilot)

    assert snap_compare(make_app("digest-card"), terminal_size=SIZE, run_before=run_before)


def test_document_browser_shows_readable_input_schema(snap_compare: Any, make_app: Any) -> None:
    """The document tree on the left with input_schema selected; on the right the Schema
    Reference (schema_uri, version, dialect, digest), the note that schema_uri is never
    fetched, and the properties with types, * required marks and the operator enum."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_document_authority_says_it_does_not_permit(snap_compare: Any, make_app: Any) -> None:
    """The authority node selected: a bold warning that authority describes and does not
    permit (RULES SID5), then its JSON."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("end")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_editor_marks_a_type_error(snap_compare: Any, make_app: Any) -> None:
    """The Appendix B arguments with threshold "eighty": the value underlined in red on
    line 3, the verdict '✘ 1 problem(s)', the Problems table row /condition/threshold, type,
    expected number, and 'Invoke' greyed out in the footer. The table keeps its full height
    (8 rows, blank under the one problem) and the verdict two lines, so the editor above
    them is not laid out again as problems come and go."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await enter_arguments(pilot, APPENDIX_B_TEXT.replace("80", '"eighty"'))
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_help_lists_the_focused_panes_keys(snap_compare: Any, make_app: Any) -> None:
    """A centred help dialog over the Steps screen, titled "Steps: step list" (no class
    name): a table of keys (n Next step, r Run all, R Restart, p Pretty/raw, s Show
    secrets, a Show all, then the mode keys)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_light_theme_steps(snap_compare: Any, make_app: Any) -> None:
    """The Steps screen in sia-light: dark text on a light background, green ✔ icons, the
    highlighted step on a light blue row (dark text, its green ✔ still legible)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        pilot.app.theme = "sia-light"
        await _ran_six_steps(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_high_contrast_theme_failure(snap_compare: Any, make_app: Any) -> None:
    """The digest-card failure in sia-high-contrast: pure black background, bright red ✘
    on step 4, bright yellow accents."""

    async def run_before(pilot: Pilot[Any]) -> None:
        pilot.app.theme = "sia-high-contrast"
        await _ran_six_steps(pilot)

    assert snap_compare(make_app("digest-card"), terminal_size=SIZE, run_before=run_before)


async def _invoked(pilot: Pilot[Any]) -> None:
    await _ran_six_steps(pilot)
    await enter_arguments(pilot, APPENDIX_B_TEXT)
    await pilot.press("ctrl+j")
    await settle(pilot)


def test_results_side_by_side(snap_compare: Any, make_app: Any) -> None:
    """Results after invoking with the Appendix B arguments: task state COMPLETED; left the
    result (condition_not_met, observed_value 42) with '✔ valid' and a link '→ observation-7';
    right the resource-observation record with its own '✔ valid'."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_invoked)


def test_results_of_the_earlier_invocation(snap_compare: Any, make_app: Any) -> None:
    """A negative test ("threshold": "80" sent anyway), then the Appendix B arguments, then
    [: the header reads 'invocation 1 of 2' highlighted; the status line '✔ NEGATIVE TEST
    PASSED: the agent rejected the invalid arguments as the deliberate negative test expects:
    TASK_STATE_REJECTED with input_invalid, details at /condition/threshold' over the red box
    of the agent's error (code input_invalid, state REJECTED, origin remote, at step 8) and
    its details (/condition/threshold, type); no result."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await enter_arguments(pilot, APPENDIX_B_TEXT.replace("80", '"80"'))
        await pilot.press("ctrl+t", "ctrl+j")
        await settle(pilot)
        await enter_arguments(pilot, APPENDIX_B_TEXT)
        await pilot.press("ctrl+j")
        await settle(pilot)
        await pilot.press("left_square_bracket")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_record_invalid_results_blame_only_the_record(snap_compare: Any, make_app: Any) -> None:
    """record-invalid: the header reads '✘ step 10 output_invalid (local): supporting record
    'observation-7' does not validate against its record schema' under the agent's
    COMPLETED; the result pane on the left says '✔ valid against the output schema'; the
    record pane on the right says '✘ does not validate against its record schema' with the
    located error at "" (root), required, observed_at."""
    assert snap_compare(make_app("record-invalid"), terminal_size=SIZE, run_before=_invoked)


def test_all_eleven_steps_green(snap_compare: Any, make_app: Any) -> None:
    """After invoking, the Steps screen shows all eleven steps with green ✔."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _invoked(pilot)
        await pilot.press("2")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_a_skill_that_may_act_asks_before_step_8(snap_compare: Any, make_app: Any) -> None:
    """ctrl+j on apply_interface_shutdown: Results behind a dialog in a thick warning frame
    reading 'apply_interface_shutdown may act: the document declares execute authority and
    that approval may be required' (the reason in bold warning colour), 'The document
    describes that; it does not authorize it (RULES SID5).', then 'Send this invocation?'
    over 'Send (y)' and a focused 'Cancel (n)'. Behind it, Results' header in warning
    colour: 'INCOMPLETE: steps 8-11 did not run: the invocation was not sent, because ...
    (the TUI asks before it sends)': nothing was sent yet. No toast at the top right, over
    the dialog's backdrop or behind it: the ones cleared are gone from Results too."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        app = pilot.app
        assert isinstance(app, SiaApp)
        app.choose_skill("apply_interface_shutdown")
        await _ran_six_steps(pilot)
        await pilot.press("5")
        editor = pilot.app.screen.query_one(ArgumentEditor)
        await wait_until(pilot, lambda: not editor.read_only)  # the input schema's example
        # ctrl+j at once, as a person quick on the keys: the editor's toasts ("Example
        # arguments", "Queued" before its check) go along to Results; settle clears them, and
        # none may stay behind the dialog.
        await pilot.press("ctrl+j")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_error_task_shows_code_state_origin_details(snap_compare: Any, make_app: Any) -> None:
    """With the mismatch fault the invocation is REJECTED: under the task line the verdict
    '✘ step 8 interface_mismatch (remote): the agent rejects its own interface ...'; a red
    bordered box with code, state and origin remote (reported by the agent at step 8); no
    result, and the hint that re-fetching will not help."""
    assert snap_compare(make_app("mismatch"), terminal_size=SIZE, run_before=_invoked)


def test_markup_fault_is_shown_literally(snap_compare: Any, make_app: Any) -> None:
    """The markup fault's skill names read '[bold red]pwned[/bold red] [/foo] ␛[2J␇' as plain
    text: nothing is bold or red because of it, the screen is not cleared."""
    assert snap_compare(make_app("markup"), terminal_size=SIZE, run_before=settle)


def test_history_lists_the_autosaved_failure(snap_compare: Any, make_app: Any) -> None:
    """Mode 7, History: one row (the run autosaved itself), time '<time>', agent 'sia-tui
    reference agent', skill evaluate_resource_condition, outcome 'failed', step 4, target
    http://127.0.0.1:PORT; the line above the footer offers 'm: serve the selected run as a
    mock agent on 127.0.0.1 (sia-tui mock)'; the footer offers Open, Reattach, Delete,
    Reload, Agent's tasks and Back."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("7")
        await settle(pilot)

    assert snap_compare(make_app("digest-card"), terminal_size=SIZE, run_before=run_before)


def test_history_serves_a_run_as_a_mock(snap_compare: Any, make_app: Any) -> None:
    """Mode 7, History, after m on the autosaved failure: the line above the footer reads
    'Mock of evaluate_resource_condition at sia-tui reference agent serving at
    http://127.0.0.1:PORT  (m: stop)', the skill and agent in bold, the address in bold
    green."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ran_six_steps(pilot)
        await pilot.press("7")
        await settle(pilot)
        await pilot.press("m")
        screen = pilot.app.screen
        await wait_until(pilot, lambda: getattr(screen, "mock", None) is not None)
        await settle(pilot)

    assert snap_compare(make_app("digest-card"), terminal_size=SIZE, run_before=run_before)


def test_compose_refuses_the_look_alike_pair(snap_compare: Any, make_app: Any) -> None:
    """Mode 8, Compose: both agent fields read http://127.0.0.1:PORT, skills
    measure_link_capacity -> admit_traffic_demand. A red-bordered verdict '✘ direct
    composition not allowed: schema_uri, digest differ' with the two task ids, the look-alike
    explanation (capacity vs available bandwidth); below, the four identity fields with
    '✘ differs' on schema_uri and digest and '✔ equal' on version and dialect."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("8")
        await settle(pilot)
        screen = pilot.app.screen
        screen.query_one("#left-skill", Input).value = "measure_link_capacity"
        screen.query_one("#right-skill", Input).value = "admit_traffic_demand"
        await pilot.press("f5")
        await settle(pilot)
        for side in ("left", "right"):  # the fields hold the real port; hide it once sent
            field = screen.query_one(f"#{side}-card", Input)
            field.value = snapshot_scrub(field.value)
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_read_only_session_shows_the_recorded_failure(
    snap_compare: Any, reference_agent: Any, user_dirs: UserDirs, tmp_path: Path
) -> None:
    """A saved digest-card session opened read-only: the header starts with a highlighted
    'session (read-only)' badge; step 4 red ✘ and selected with its evidence (interface_invalid,
    local), steps 5-11 skipped ⊘; nothing was sent to open it."""
    path = tmp_path / "digest-card.session.json"
    agent = reference_agent(fault="digest-card")
    save_session(asyncio.run(record_run(agent.url)), ClientOptions(), path)
    agent.stop()
    app = read_only_app(path, user_dirs)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_plain_a2a_agent_overview_offers_the_console(
    snap_compare: Any, echo_agent_url: str, user_dirs: UserDirs
) -> None:
    """An a2a-sdk agent without the extension: the card with the ADV4 statement and, under
    it and under the skill list, 'Steps 3-11 do not apply' and 'Press 0 for the plain A2A
    console'; the Echo skill marked '(no schema interface)'."""
    from sia_tui.core.run import Target

    app = snapshot_app(Target(echo_agent_url), dirs=user_dirs)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_console_shows_the_raw_reply_and_the_artifacts(
    snap_compare: Any, echo_agent_url: str, user_dirs: UserDirs
) -> None:
    """The console after sending the text 'hello from the card' (the card's example) in
    sync mode: 'task <uuid> state TASK_STATE_COMPLETED 1 artifact(s)', the raw reply on the
    left (its wire verdict 'wire (A2A 1.0): ok' in green, response headers and body first,
    then the request), the artifact 'echo' with the text 'echo: hello from the card' on the
    right."""
    from sia_tui.core.run import Target

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("0")
        await settle(pilot)
        await pilot.press("ctrl+j")
        await settle(pilot)

    app = snapshot_app(Target(echo_agent_url), dirs=user_dirs)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_probe_screen_explains_a_failed_probe(snap_compare: Any, make_app: Any) -> None:
    """Mode 9 against the ignores-max-input agent after p: the summary reads 'Probe
    evaluate_resource_condition 1.0  10 pass  1 fail  0 warn  2 skip' and 'judged against
    draft-huang-ainetops-agent-schema-interfaces-00'; thirteen probes listed with green ✔ pass,
    grey ⊘ skip and one red ✘ fail, oversized-input, selected. On the right: 'Steps 1-11
    passed', the red ✘ oversized-input heading with 'fail; RULES ERR3', the reason (the
    agent completed the task), what was sent (/condition/metric padded past the 4096-byte
    limit), Expected REJECTED with constraint_rejected, Observed COMPLETED, and 'It should
    have answered' in amber."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("9")
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("end", "up")
        await settle(pilot)

    assert snap_compare(make_app("ignores-max-input"), terminal_size=SIZE, run_before=run_before)


def test_fuzz_action_shows_a_shrunk_failure(
    snap_compare: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mode 9 against the rejects-boundary agent after f (12 examples, seed 3): the summary
    reads 'Fuzz evaluate_resource_condition  failed' with the tally and 'seed 3, 12
    examples at most'; the list shows the cases sent with green ✔ pass and one red ✘ fail,
    the first, selected. On the right: 'Failure, shrunk to the smallest arguments: #1
    valid-refused', the red ✘ '#1 valid' heading with 'fail; RULES INV3', the reason
    (valid arguments refused with input_invalid), 'Finding valid-refused', and the
    arguments sent, every string one character long ("0")."""
    from sia_tui.tui.screens import probe as probe_screen

    monkeypatch.setattr(probe_screen, "FUZZ_EXAMPLES", 12)
    monkeypatch.setattr(probe_screen, "FUZZ_RATE", 1000.0)
    monkeypatch.setattr(probe_screen, "FUZZ_SEED", 3)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("9")
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)

    assert snap_compare(make_app("rejects-boundary"), terminal_size=SIZE, run_before=run_before)
