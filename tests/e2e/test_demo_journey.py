"""`sia-tui demo` as a person uses it, in a real terminal: steps 1-6, the argument editor
(Enter across 9/10 lines, multi-line pastes at the cursor and over a select-all, a 100 KB
paste, f3/f4 and ctrl+z), a resize, invoke, Results, save, quit; then the saved session
through `open`, `replay` and `report`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.terminal import Home, StartTerminal, Terminal

#: Real processes in a pty: seconds each, not milliseconds.
pytestmark = pytest.mark.slow

#: The valid arguments the journey sends: the example's threshold 80 becomes 30, so the
#: agent's observed 42 meets it and Results says so (the pasted text is what was sent).
SENT = {
    "resource_id": "network-resource-123",
    "condition": {"metric": "utilization", "operator": "gte", "threshold": 30, "unit": "percent"},
}


def run_steps_one_to_six(term: Terminal) -> None:
    """Steps (2), run all (r): steps 1-6 pass and the run waits for arguments (the notice
    comes once the engine is idle again, so the next key is not refused as busy)."""
    term.press("2")
    term.wait_for("Retrieve the Agent")
    term.press("r")
    term.wait_for(*(f"✔ {step:>2} " for step in range(1, 7)), "·  7 ", "Waiting for arguments")


def big_arguments() -> str:
    """About 100 KB over 3,000 lines (past the 999/1000 gutter): valid JSON the schema
    refuses (a member it does not declare)."""
    pad = [f"row-{i:05d}-" + "x" * 20 for i in range(3_000)]
    text = json.dumps({**SENT, "padding": pad}, indent=2)
    assert 100_000 <= len(text) < 120_000 and text.count("\n") > 3_000
    return text


def edit_arguments(term: Terminal) -> None:
    """Screen 5 at 80x24: everything the editor crashed on, then the arguments to send."""
    term.press("5")
    term.wait_for("9  }", "Arguments valid")

    # Enter on the last line: 9 lines become 10 (the gutter widens), then move about.
    term.press(*["down"] * 8, "end", "enter")
    term.wait_for("▊ 10 ")
    term.press("up", "down", "up", "up", "down", "down")
    term.press("backspace")  # and back to 9 lines
    term.wait_until_gone("▊ 10 ")
    term.press("up", "down", "down")
    term.wait_for("Arguments valid")
    term.assert_alive()

    # A 14-line paste at the cursor (the start of line 2), newlines as CR (xterm, VTE).
    term.press(*["up"] * 7, "home")
    term.paste("".join(f'  "note_{i:02d}": {i},\n' for i in range(1, 15)))
    term.wait_for("Additional properties are not")
    # The cursor (after the paste, on the old line 2) stays in view as the problem appears.
    term.wait_for("note_14", '"resource_id"')
    term.press("down", "down", "pagedown", "up")
    term.assert_alive()
    term.press("ctrl+z")
    term.wait_for("Arguments valid")
    term.wait_until_gone("note_")

    # Select all (f7) and paste over it, newlines as LF (kitty and others).
    term.press("f7")
    term.paste(json.dumps(SENT, indent=4) + "\n", newline=b"\n")
    term.wait_for('"threshold": 30', "Arguments valid")
    term.press("down", "down", "up")
    term.assert_alive()

    # 100 KB over a select-all: the problem is on screen, the editor goes on working.
    term.press("f7")
    term.paste(big_arguments())
    term.wait_for("row-0", "problem(s)")
    term.press("pagedown", "up", "up", "down")
    term.assert_alive()
    term.press("ctrl+z")
    term.wait_for('"threshold": 30', "Arguments valid")
    term.wait_until_gone("row-")

    # f3 (the skeleton) and f4 (the example) each replace the text; ctrl+z brings it back.
    for key in ("f3", "f4"):
        term.press(key)
        term.wait_for('"threshold": 80')
        term.press("ctrl+z")
        term.wait_for('"threshold": 30', "Arguments valid")
    term.assert_alive()


def test_demo_from_steps_to_a_saved_session(terminal: StartTerminal, home: Home) -> None:
    term = terminal("demo", cols=80, rows=24)
    term.wait_for("Open skill")
    run_steps_one_to_six(term)
    edit_arguments(term)

    # The window grows (SIGWINCH): the app redraws at 140x40 and the editor keeps the text.
    term.resize(140, 40)
    term.wait_for("1 Overview 2 Steps", '"threshold": 30')

    term.press("ctrl+j")  # invoke: the app shows Results
    term.wait_for("TASK_STATE_COMPLETED", '"result": "condition_met"')
    term.press("6")
    term.wait_for("valid against the output schema")

    term.press("ctrl+s")
    term.wait_for("Save session to")
    term.press("enter")
    term.wait_for("Session saved")
    term.resize(80, 24)  # and shrinks back: the short tab titles return
    term.wait_for("1 Card 2 Steps", "TASK_STATE_COMPLETED")
    term.assert_alive()
    assert term.quit() == 0
    assert "Traceback" not in term.output

    [session] = home.cwd.glob("*.session.json")
    open_read_only(terminal, session)
    replay_and_report(home, session)


def open_read_only(terminal: StartTerminal, session: Path) -> None:
    term = terminal("open", str(session), cols=80, rows=24)
    term.wait_for("read-only")
    term.press("6")
    term.wait_for("TASK_STATE_COMPLETED", "condition_met")
    term.press("5")
    term.wait_for('"threshold": 30')  # the arguments as sent
    term.assert_alive()
    assert term.quit() == 0
    assert "Traceback" not in term.output


def replay_and_report(home: Home, session: Path) -> None:
    replay = home.run("replay", str(session))
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "today: PASSED: all eleven steps passed" in replay.stdout
    report = home.run("report", str(session))
    assert report.returncode == 0, report.stderr
    assert "PASSED: all eleven steps passed**" in report.stdout
    assert "| 8 | Delegate the task | CP8 | passed |" in report.stdout
    assert "Traceback" not in replay.stderr + report.stderr
