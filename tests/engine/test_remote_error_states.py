"""The terminal state an agent pairs with a draft code (RULES ERR3)."""

from __future__ import annotations

import pytest

from sia_tui.core.a2a.task_views import Message, Part, Task
from sia_tui.core.engine.steps.remote_errors import read_remote_error


def _ended(state: str, code: str) -> Task:
    status = Message("m-1", "ROLE_AGENT", (Part("data", {"code": code, "message": "no"}),), {})
    return Task("t-1", None, state, status, (), {})


@pytest.mark.parametrize("state", ["TASK_STATE_REJECTED", "TASK_STATE_FAILED"])
def test_a_code_without_a_terminal_state_draws_no_err3_warning(state: str) -> None:
    """skill_not_advertised is local-only in the draft: no state of the agent's breaks ERR3.

    The warning used to read "skill_not_advertised should end in , not ..." (empty list).
    """
    error = read_remote_error(_ended(state, "skill_not_advertised"))
    assert error.code == "skill_not_advertised"
    assert [f.rule for f in error.findings] == []


def test_a_code_in_the_wrong_state_is_warned_about_with_the_states_it_needs() -> None:
    error = read_remote_error(_ended("TASK_STATE_FAILED", "input_invalid"))
    messages = [f.message for f in error.findings if f.rule == "ERR3"]
    assert messages == ["input_invalid should end in TASK_STATE_REJECTED, not TASK_STATE_FAILED"]
