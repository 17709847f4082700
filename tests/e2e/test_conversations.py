"""Talking to an agent in a real terminal: a task that asks (`serve-demo --ask input`) gets
its reply typed and sent, and the Console (0) sends a typed message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.e2e.terminal import StartTerminal, Terminal

#: Real processes in a pty: seconds each, not milliseconds.
pytestmark = pytest.mark.slow


def open_invoke_screen(term: Terminal) -> None:
    """Steps (2), run all (r) through step 6, then the argument editor (5)."""
    term.wait_for("Open skill")
    term.press("2")
    term.wait_for("Retrieve the Agent")
    term.press("r")
    term.wait_for("Waiting for arguments")
    term.press("5")
    term.wait_for("Arguments valid")


def test_a_task_that_asks_gets_the_typed_reply(
    terminal: StartTerminal, serve_demo: Callable[..., str]
) -> None:
    url = serve_demo("--ask", "input", "--port", "0")
    term = terminal("open", url, cols=140, rows=40)
    open_invoke_screen(term)

    term.press("ctrl+j")  # invoke: the task stops and asks
    term.wait_for("The agent asks", "TASK_STATE_INPUT_REQUIRED", "Which site should")
    term.click("your reply")  # the reply box (its placeholder), as a person would
    term.type("site B, the north hall")
    term.wait_for("site B, the north hall")
    term.press("enter")

    term.wait_for("state TASK_STATE_COMPLETED", "valid against the output schema")
    # The turn stays listed with the reply sent (once the notifications over it time out).
    term.wait_for("Turns", "1. TASK_STATE_INPUT_REQUIRED", "): site B, the north hall")
    term.assert_alive()
    assert term.quit() == 0
    assert "Traceback" not in term.output


def test_the_console_sends_a_typed_message(terminal: StartTerminal) -> None:
    term = terminal("demo", cols=80, rows=24)
    term.wait_for("Open skill")
    term.press("0")
    term.wait_for("Nothing sent yet")

    term.type("hello from a terminal")
    term.wait_for("hello from a terminal")
    term.press("ctrl+j")
    # Sent as a text part: the reference agent wants a data part, so the task it made is
    # rejected, and the console shows what it answered (it judges nothing itself).
    # A text part that names no skill is a plain-A2A task: the reference agent echoes it
    # and asks for more (docs/REFERENCE-AGENT.md).
    term.wait_for(
        "state TASK_STATE_INPUT_REQUIRED", "#1 console  POST", "echo: hello from a terminal"
    )
    term.assert_alive()
    assert term.quit() == 0
    assert "Traceback" not in term.output
