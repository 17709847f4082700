"""Session decoding works out how to read each type once (``_form``, ``_members``) instead of
asking ``typing`` again for every value (most of the time a 20,000-result probe session
took to load). It must rebuild the same objects, and refuse the same files with the same
message, as the decoder that asked every time: checked on real runs edited at random."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any, Literal, Union

from hypothesis import given, settings
from hypothesis import strategies as st

from sia_tui.core.run.read_model import Run
from sia_tui.core.session import load_session
from sia_tui.core.session.dataclass_json import (
    MAX_DEPTH,
    SessionError,
    _fail,
    _hints,
    _kind_of,
    from_json,
    to_json,
)

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = [
    ROOT / "tests" / "fixtures" / "sessions" / "negative-then-valid-v3.session.json",
    ROOT / "docs" / "examples" / "digest-card.session.json",
]


# -- the decoder as it was: every value asks typing what its type is -------------------------
def _union(options: tuple[Any, ...], data: Any, where: str, depth: int) -> Any:
    if data is None and type(None) in options:
        return None
    if isinstance(data, dict) and any(_kind_of(o) for o in options):
        for option in options:
            if data.get("kind") in _kind_of(option):
                return _reference(option, data, where, depth + 1)
        raise SessionError(f"at {where}/kind: unknown kind {data.get('kind')!r}")
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return _reference(option, data, where, depth + 1)
        except SessionError as exc:
            errors.append(exc)
    raise errors[0] if errors else _fail(where, "a value", data)


def _reference(tp: Any, data: Any, where: str, depth: int) -> Any:  # noqa: PLR0911, PLR0912
    if depth > MAX_DEPTH:
        raise SessionError(f"at {where}: nested deeper than {MAX_DEPTH} levels")
    if tp is Any or tp is object:
        return data
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union(typing.get_args(tp), data, where, depth)
    if origin is Literal:
        if data in typing.get_args(tp):
            return data
        raise SessionError(f"at {where}: expected one of {list(typing.get_args(tp))}")
    if origin in (list, tuple):
        if not isinstance(data, list):
            raise _fail(where, "an array", data)
        args = typing.get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(data):
                raise SessionError(f"at {where}: expected {len(args)} items, found {len(data)}")
            return tuple(
                _reference(a, d, f"{where}/{i}", depth + 1)
                for i, (a, d) in enumerate(zip(args, data, strict=True))
            )
        item = args[0] if args else Any
        items = [_reference(item, d, f"{where}/{i}", depth + 1) for i, d in enumerate(data)]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(data, dict):
            raise _fail(where, "an object", data)
        _, value_tp = typing.get_args(tp) or (str, Any)
        return {k: _reference(value_tp, v, f"{where}/{k}", depth + 1) for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise SessionError(f"at {where}: {data!r} is not a known {tp.__name__}") from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise _fail(where, f"a {tp.__name__} object", data)
        hints, kwargs = _hints(tp), {}
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            if f.name not in data:
                if f.default is not dataclasses.MISSING or (
                    f.default_factory is not dataclasses.MISSING
                ):
                    continue
                raise SessionError(f"at {where}: missing member '{f.name}' of {tp.__name__}")
            kwargs[f.name] = _reference(hints[f.name], data[f.name], f"{where}/{f.name}", depth + 1)
        return tp(**kwargs)
    if tp is float and isinstance(data, int | float) and not isinstance(data, bool):
        return float(data)
    if tp is int and isinstance(data, bool):
        raise _fail(where, "an integer", data)
    if tp in (str, int, bool) and isinstance(data, tp):
        return data
    if tp is type(None) and data is None:
        return None
    raise _fail(where, getattr(tp, "__name__", str(tp)), data)


# -- real runs, edited -----------------------------------------------------------------------
def _run_json(path: Path) -> Any:
    run = load_session(path).run
    return json.loads(json.dumps(to_json(dataclasses.replace(run, exchanges=[]))))


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["passed", "failed", "sync", "JSONRPC", "TASK_STATE_COMPLETED", "local"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)  # fmt: skip


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside ``value``."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _places(item, (*path, index))
    return found


@cache
def _runs() -> list[tuple[Any, list[tuple[Any, ...]]]]:
    """Each run's JSON and the path of every value in it (read on first use)."""
    return [(run, _places(run)) for run in map(_run_json, SESSIONS)]


def _edited(value: Any, path: tuple[Any, ...], new: Any, delete: bool) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return copy


def _outcome(decode: Any, data: Any) -> tuple[str, Any]:
    try:
        return "decoded", decode(data)
    except SessionError as error:
        return "refused", str(error)


@settings(max_examples=300)
@given(st.data())
def test_an_edited_run_decodes_or_is_refused_as_before(data: st.DataObject) -> None:
    run, places = data.draw(st.sampled_from(_runs()))
    path = data.draw(st.sampled_from(places))
    edited = _edited(run, path, data.draw(_VALUES), data.draw(st.booleans()))
    assert _outcome(lambda d: from_json(Run, d, "/run"), edited) == _outcome(
        lambda d: _reference(Run, d, "/run", 0), edited
    )


def test_the_runs_decode_unedited() -> None:
    for run, _ in _runs():
        assert from_json(Run, run, "/run") == _reference(Run, run, "/run", 0)
