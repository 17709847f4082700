"""sia-session/3 against older and edited files: /2 still loads, bad references are located."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sia_tui.core.a2a.objects import parse_artifact, parse_task
from sia_tui.core.a2a.options import ClientOptions
from sia_tui.core.a2a.task_views import Part, Task
from sia_tui.core.run.read_model import Run, Target
from sia_tui.core.session import SessionError, load_session, save_session
from sia_tui.core.session.dataclass_json import from_json, to_json
from sia_tui.core.session.payloads import compact_payloads, expand_payloads
from sia_tui.core.session.replay import replay_session

#: A passing Appendix B run (sync) saved by sia-tui before format 3 (provenance: the
#: reference agent, ``record_live`` and ``save_session`` of main at 2ce0e83).
V2_FILE = Path(__file__).parents[1] / "fixtures" / "sessions" / "appendix-b-v2.session.json"


async def test_a_version_2_file_loads_replays_and_saves_as_the_current_version(
    tmp_path: Path,
) -> None:
    old = load_session(V2_FILE)
    assert old.format == "sia-session/2" and old.manifest_ok, old.warnings
    run = old.run
    assert run.verdict.outcome.value == "passed" and run.task is not None and run.result is not None
    assert run.result.data_parts()[0]["result"] == "condition_not_met"
    assert (await replay_session(old)).same

    path = tmp_path / "again.session.json"
    save_session(run, ClientOptions(), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "sia-session/6"
    # Saved again, the result is the task artifact it equals, not a copy.
    assert data["run"]["result"] == {"task_artifact": 0}
    assert data["run"]["records"][0]["artifact"] == {"task_artifact": 1}
    assert data["run"]["task"]["dialect"] == "1.0"
    again = load_session(path)
    assert again.run.task == run.task and again.run.result == run.result
    assert [r.artifact for r in again.run.records] == [r.artifact for r in run.records]
    assert [s.status for s in again.run.steps] == [s.status for s in run.steps]
    assert (await replay_session(again)).same


def _edited(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    source = tmp_path / "v3.session.json"
    save_session(load_session(V2_FILE).run, ClientOptions(), source)
    data = json.loads(source.read_text(encoding="utf-8"))
    edit(data["run"])
    path = tmp_path / "edited.session.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r.update(result={"task_artifact": 7}), r"at /run/result/task_artifact: 7 "),
        (lambda r: r.update(result={"task_artifact": True}), r"/run/result/task_artifact: True"),
        (
            lambda r: r["records"][0].update(artifact={"task_artifact": -1}),
            r"at /run/records/0/artifact/task_artifact: -1",
        ),
        (lambda r: r["task"].update(dialect="0.2"), r"at /run/task/dialect: expected one of"),
        (lambda r: r["task"].update(from_wire=[1]), r"at /run/task/from_wire: task is not"),
        (
            lambda r: r["task"]["from_wire"].pop("status"),
            r"at /run/task/from_wire: task has no 'status'",
        ),
        (
            lambda r: r["task"]["from_wire"]["artifacts"][0].update(parts=[5]),
            r"at /run/task/from_wire: part is not a JSON object",
        ),
        (
            lambda r: r.update(result={"from_wire": "x", "dialect": "1.0"}),
            r"at /run/result/from_wire: artifact is not",
        ),
    ],
    ids=[
        "index-out-of-range",
        "index-bool",
        "record-index",
        "dialect",
        "task-not-object",
        "no-status",
        "bad-part",
        "artifact-not-object",
    ],
)
def test_an_edited_version_3_payload_is_a_located_error(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    with pytest.raises(SessionError, match=message):
        load_session(_edited(tmp_path, edit))


def _round_trip(run: Run) -> Run:
    """``run``'s payload members written as version 3 and read back."""
    expanded = expand_payloads(json.loads(json.dumps(compact_payloads(run))))
    return from_json(Run, {**to_json(dataclasses.replace(run, task=None)), **expanded})


def test_a_0_3_rest_task_is_rebuilt_in_its_own_dialect() -> None:
    """The 0.3 REST form wraps a data part's value: the flag that says so is stored."""
    wire = {
        "id": "t",
        "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": "a", "name": "s", "parts": [{"data": {"data": {"x": 1}}}]}],
    }
    task = parse_task(wire, proto03=True)
    run = Run(target=Target("http://x"), task=task, result=task.artifacts[0])
    assert compact_payloads(run)["task"]["dialect"] == "0.3-rest"
    again = _round_trip(run)
    assert again.task == task and again.result == task.artifacts[0]
    assert again.result is not None and again.result.data_parts() == [{"x": 1}]


def test_an_artifact_grown_by_appends_is_kept_member_for_member() -> None:
    """A streamed artifact whose chunks were appended is not its first chunk's wire object."""
    first = parse_artifact({"artifactId": "a", "name": "s", "parts": [{"data": [1]}]})
    grown = dataclasses.replace(first, parts=(*first.parts, Part("data", [2])))
    task = Task("t", None, "TASK_STATE_COMPLETED", None, (grown,), {})
    run = Run(target=Target("http://x"), task=task, result=grown)
    stored = compact_payloads(run)
    assert "from_wire" not in stored["task"] and "parts" in stored["task"]["artifacts"][0]
    assert stored["result"] == {"task_artifact": 0}
    again = _round_trip(run)
    assert again.task == task and again.result == grown
