"""The read model's lookups: steps by name, the result's value, the task states as read;
what ``Run`` is made of (its own members, its answers behind two views)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sia_tui.core.a2a.objects import parse_task
from sia_tui.core.a2a.task_views import Artifact, Part
from sia_tui.core.engine import run_to_json
from sia_tui.core.run import STEP_TITLES, Run, RunAnswers, RunVerdict, Step, Target
from sia_tui.core.task_state import TaskState


def _run_with_result(*parts: Part) -> Run:
    run = Run(Target("http://127.0.0.1:9"))
    run.result = Artifact("r-1", "evaluate_resource_condition", parts, {})
    return run


def test_a_step_is_found_by_its_name_in_the_drafts_order() -> None:
    run = Run(Target("http://127.0.0.1:9"))
    delegation = run.step(Step.DELEGATION)
    assert (delegation.step, delegation.rule, delegation.title) == (8, "CP8", "Delegate the task")
    assert [run.step(s).rule for s in Step] == [f"CP{n}" for n in range(1, 12)]
    assert list(STEP_TITLES) == list(Step)


def test_the_result_value_is_its_one_data_part_in_every_surface() -> None:
    value = {"status": "ok", "supporting_record_refs": ["a2"]}
    run = _run_with_result(Part("data", value))
    assert run.answers.result_value == value
    assert run.answers.record_refs == ["a2"]
    assert run_to_json(run)["result"] == value


def test_run_keeps_a_handful_of_its_own_members_and_forwards_no_answer() -> None:
    """Every answer is implemented once, behind ``run.verdict`` or ``run.answers``: no
    property of ``Run`` repeats one (the 31 one-line forwarders are not to come back)."""
    own = {name for name, member in vars(Run).items() if isinstance(member, property)}
    assert own == {"verdict", "answers", "invocations", "live_events"}
    public = {name for name in dir(Run) if not name.startswith("_")}
    for view in (RunVerdict, RunAnswers):
        answers = {n for n, m in vars(view).items() if isinstance(m, property)}
        assert answers and not answers & public, view


def test_a_view_answers_for_the_run_it_is_read_from_even_a_copy() -> None:
    """The views are made on each access: a copy of a run answers from itself, never from
    the run it was copied from (a view cached on the run would be copied with it)."""
    run = _run_with_result(Part("data", {"status": "ok"}))
    assert run.answers.result_value == {"status": "ok"}
    twin = copy.copy(run)
    twin.result = None
    assert twin.answers.result_value is None
    assert run.answers.result_value == {"status": "ok"}


@pytest.mark.parametrize(
    "parts",
    [
        (Part("text", "done"),),
        (Part("data", {"supporting_record_refs": ["a2"]}), Part("data", {"other": 1})),
    ],
)
def test_a_result_without_one_data_part_has_no_value(parts: tuple[Part, ...]) -> None:
    """Step 10 fails such a result (RULES INV5); no surface picks one of its parts."""
    run = _run_with_result(*parts)
    assert run.answers.result_value is None
    assert run.answers.record_refs == []
    assert run_to_json(run)["result"] is None


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ("completed", TaskState.COMPLETED),
        ("input-required", TaskState.INPUT_REQUIRED),
        ("TASK_STATE_REJECTED", TaskState.REJECTED),
        (3, TaskState.COMPLETED),
    ],
)
def test_task_states_are_read_as_the_enum_in_both_dialects(state: Any, expected: TaskState) -> None:
    """0.3 spellings and ProtoJSON numbers become the one TaskState the engine compares."""
    task = parse_task({"id": "t", "status": {"state": state}}, proto03=False)
    assert task.state is expected
    assert task.terminal  # each of these ends a stream or a poll
