"""``sia-session/3`` stores each artifact payload once: the task as the wire object it came as.

Version 2 wrote the typed task member for member, so a result's data was in the file five
times parsed (the part's ``value``, the artifact's ``raw``, the task's ``raw``, and the
result's two again): a 300,000-number result exceeded the values a session may hold.
Version 3 writes the task as its wire object (``from_wire``) when the client's own parser
rebuilds exactly the typed task from it, and the result and each record as the index of the
task artifact they are (``task_artifact``). On load, :func:`expand_payloads` rebuilds the
version-2 form with that same parser, then the typed codec checks it as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sia_tui.core.a2a.objects import parse_artifact, parse_task
from sia_tui.core.a2a.task_views import Artifact, Task
from sia_tui.core.errors import A2AProtocolError
from sia_tui.core.run.read_model import Run
from sia_tui.core.session.dataclass_json import SessionError, to_json

#: The member holding a wire object the typed view is rebuilt from.
WIRE = "from_wire"
#: The member naming a task artifact by its index in ``/run/task/artifacts``.
TASK_ARTIFACT = "task_artifact"
#: How the wire object is parsed: the 0.3 REST ProtoJSON form wraps a data part's value.
DIALECTS = {"1.0": False, "0.3-rest": True}

T = TypeVar("T", Task, Artifact)


def compact_payloads(run: Run) -> dict[str, Any]:
    """The ``task``, ``result`` and ``records`` members of a version-3 ``run`` (JSON)."""
    task = run.task
    index = _ArtifactIndex(task.artifacts if task is not None else ())
    records = []
    for record in run.records:
        entry = {
            f.name: to_json(getattr(record, f.name))
            for f in dataclasses.fields(record)
            if f.name != "artifact"
        }
        records.append({"artifact": _artifact(record.artifact, index), **entry})
    return {
        "task": None if task is None else _task(task),
        "result": None if run.result is None else _artifact(run.result, index),
        "records": records,
    }


class _ArtifactIndex:
    """Where an artifact is among the task's: by identity (a live run), else by equality
    with those of the same id (a loaded session saved again). Linear in the artifacts: a
    task may carry thousands of records."""

    def __init__(self, artifacts: Sequence[Artifact]) -> None:
        self._artifacts = artifacts
        self._by_identity = {id(a): i for i, a in enumerate(artifacts)}
        self._by_id: dict[str, list[int]] = {}
        for i, a in enumerate(artifacts):
            self._by_id.setdefault(a.artifact_id, []).append(i)

    def find(self, artifact: Artifact) -> int | None:
        found = self._by_identity.get(id(artifact))
        if found is not None:
            return found
        same_id = self._by_id.get(artifact.artifact_id, [])
        return next((i for i in same_id if self._artifacts[i] == artifact), None)


def _task(task: Task) -> dict[str, Any]:
    wire = _as_wire(task, parse_task)
    if wire is not None:
        return wire
    # Assembled from a stream (no single wire object): member for member, each artifact
    # as its own wire object where it is one (an artifact grown by appends is not).
    explicit = {
        f.name: to_json(getattr(task, f.name))
        for f in dataclasses.fields(task)
        if f.name != "artifacts"
    }
    explicit["artifacts"] = [_artifact(a, None) for a in task.artifacts]
    return explicit


def _artifact(artifact: Artifact, index: _ArtifactIndex | None) -> dict[str, Any]:
    """``{"task_artifact": N}`` for one of the task's artifacts, else the artifact itself."""
    found = None if index is None else index.find(artifact)
    if found is not None:
        return {TASK_ARTIFACT: found}
    wire = _as_wire(artifact, parse_artifact)
    converted: dict[str, Any] = to_json(artifact) if wire is None else wire
    return converted


def _as_wire(view: T, parse: Callable[..., T]) -> dict[str, Any] | None:
    """``{"from_wire": raw, "dialect": ...}`` when parsing ``raw`` gives ``view`` back
    exactly (compared by identity first: the parsed values are shared, so this is quick)."""
    if not view.raw:
        return None
    for dialect, proto03 in DIALECTS.items():
        try:
            if parse(view.raw, proto03=proto03) == view:
                return {WIRE: view.raw, "dialect": dialect}
        except A2AProtocolError:
            continue
    return None


def expand_payloads(run: dict[str, Any]) -> dict[str, Any]:
    """A version-3 ``run`` object rewritten in the version-2 form the typed codec reads."""
    task = run.get("task")
    if isinstance(task, dict) and WIRE not in task:
        # Assembled from a stream: each artifact may be a wire object of its own.
        items = task.get("artifacts")
        if isinstance(items, list):
            expanded = [
                _expand_artifact(a, [], f"/run/task/artifacts/{i}") for i, a in enumerate(items)
            ]
            task = {**task, "artifacts": expanded}
    else:
        task = _expand(task, parse_task, "/run/task")
    found = task.get("artifacts") if isinstance(task, dict) else None
    artifacts: list[Any] = found if isinstance(found, list) else []
    records = run.get("records", [])
    if isinstance(records, list):
        records = [
            {**r, "artifact": _expand_artifact(r.get("artifact"), artifacts, _record(i))}
            if isinstance(r, dict)
            else r
            for i, r in enumerate(records)
        ]
    result = _expand_artifact(run.get("result"), artifacts, "/run/result")
    return {**run, "task": task, "result": result, "records": records}


def _record(index: int) -> str:
    return f"/run/records/{index}/artifact"


def _expand_artifact(value: Any, artifacts: list[Any], where: str) -> Any:
    if isinstance(value, dict) and TASK_ARTIFACT in value:
        index = value[TASK_ARTIFACT]
        if type(index) is not int or not 0 <= index < len(artifacts):
            raise SessionError(
                f"at {where}/{TASK_ARTIFACT}: {index!r} is not the index of an artifact "
                "in /run/task/artifacts"
            )
        return artifacts[index]
    return _expand(value, parse_artifact, where)


def _expand(value: Any, parse: Callable[..., Any], where: str) -> Any:
    """The version-2 JSON of the view ``parse`` rebuilds from a ``from_wire`` member."""
    if not isinstance(value, dict) or WIRE not in value:
        return value
    dialect = value.get("dialect")
    if not isinstance(dialect, str) or dialect not in DIALECTS:
        raise SessionError(f"at {where}/dialect: expected one of {list(DIALECTS)}")
    try:
        return to_json(parse(value[WIRE], proto03=DIALECTS[dialect]))
    except A2AProtocolError as exc:
        raise SessionError(f"at {where}/{WIRE}: {exc}") from None
