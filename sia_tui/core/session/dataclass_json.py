"""Typed dataclass <-> JSON conversion for session files, checking every value it rebuilds."""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union

from sia_tui.core.errors import SiaError
from sia_tui.core.jsonkit.pointer import display

T = TypeVar("T")

#: Deepest nesting the decoder follows (session files are untrusted input).
MAX_DEPTH = 64


class SessionError(SiaError):
    """A session file cannot be read: the message is one line a user can act on."""


def to_json(value: Any) -> Any:
    """A JSON-ready form of ``value``: dataclasses become objects, enums their value.

    Parsed JSON inside it (an artifact's data, a task's ``raw``) is shared, not copied: a
    5 MB result is a million values, referenced five times by a run. A value
    reached twice (the result artifact is also the task's) is converted once.
    """
    return _to_json(value, {})


#: Types whose values are their own JSON form (exact types: a StrEnum is converted).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _to_json(value: Any, seen: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if id(value) in seen:
        return seen[id(value)]
    if (kind is dict or kind is list) and _plain(value):
        converted: Any = value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A field marked ``metadata={"stored": False}`` (the run's issued tokens) is never
        # written: decoding leaves it at its default.
        converted = {
            f.name: _to_json(getattr(value, f.name), seen)
            for f in dataclasses.fields(value)
            if f.metadata.get("stored", True)
        }
    elif isinstance(value, enum.Enum):
        converted = value.value
    elif isinstance(value, list | tuple):
        converted = [_to_json(v, seen) for v in value]
    elif isinstance(value, dict):
        converted = {str(k): _to_json(v, seen) for k, v in value.items()}
    elif isinstance(value, bytes):
        raise TypeError("bytes must be encoded by the caller")
    else:
        return value
    seen[id(value)] = converted  # ``value`` lives until the call ends: its id stays unique
    return converted


def _plain(value: dict[str, Any] | list[Any]) -> bool:
    """True when ``value`` holds only JSON values (checked in C: the encoder refuses
    anything else). Tuples pass and stay tuples, numeric member names stay numbers: JSON
    writes them as arrays and strings, as it writes a str or int enum as its value."""
    try:
        json.dumps(value, check_circular=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


#: Types a module of the run model names in its annotations but imports only for type
#: checkers (under ``TYPE_CHECKING``): a run that never meets one (a plain ``check`` has no
#: signature, no lock and no anchors) does not load its module. Name -> defining module;
#: ``_hints`` imports one when a session file needs it. tests/core/test_deferred_types.py
#: holds the table to the code.
DEFERRED_TYPES: dict[str, str] = {
    "Artifact": "sia_tui.core.a2a.task_views",
    "LockComparison": "sia_tui.core.trust.records",
    "PlainMessage": "sia_tui.core.run.plain",
    "PushLog": "sia_tui.core.run.push_log",
    "SignatureCheck": "sia_tui.core.trust.records",
    "StepEvidence": "sia_tui.core.run.later_evidence",
    "StreamEvent": "sia_tui.core.a2a.task_views",
    "Task": "sia_tui.core.a2a.task_views",
    "TrustAnchors": "sia_tui.core.trust.records",
    "Verdict": "sia_tui.core.run.refusal",
    "Turn": "sia_tui.core.run.turns",
}


class _DeferredNames(dict[str, Any]):
    """The names of ``DEFERRED_TYPES``, each imported on first lookup (other names miss:
    they come from the class's module, as ``typing.get_type_hints`` finds them)."""

    def __missing__(self, name: str) -> Any:
        module = DEFERRED_TYPES.get(name)
        if module is None:
            raise KeyError(name)
        value = getattr(importlib.import_module(module), name)
        self[name] = value
        return value


_DEFERRED_NAMES = _DeferredNames()


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, localns=_DEFERRED_NAMES)


def from_json(cls: type[T], data: Any, where: str = "") -> T:
    """Rebuild a ``cls`` instance from JSON, raising :class:`SessionError` on any mismatch."""
    result: T = _decode(cls, data, where, 0)
    return result


def _fail(where: str, expected: str, data: Any) -> SessionError:
    return SessionError(f"at {display(where)}: expected {expected}, found {type(data).__name__}")


@cache
def _kind_of(cls: Any) -> tuple[Any, ...]:
    """The values a dataclass's ``kind: Literal[...]`` member allows (empty: no such member)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return ()
    hint = _hints(cls).get("kind")
    return typing.get_args(hint) if typing.get_origin(hint) is Literal else ()


def _decode_union(options: tuple[Any, ...], data: Any, where: str, depth: int) -> Any:
    if data is None and type(None) in options:
        return None
    if isinstance(data, dict) and any(_kind_of(o) for o in options):
        # A tagged union (the typed step evidence): ``kind`` names the class.
        for option in options:
            if data.get("kind") in _kind_of(option):
                return _decode(option, data, where, depth + 1)
        raise SessionError(f"at {where}/kind: unknown kind {data.get('kind')!r}")
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return _decode(option, data, where, depth + 1)
        except SessionError as exc:
            errors.append(exc)
    raise errors[0] if errors else _fail(where, "a value", data)


#: What ``_decode`` does with a type (``_form``), named once per type.
_ANY, _UNION, _LITERAL, _ITEMS, _FIXED, _MAP, _ENUM, _DATACLASS, _SCALAR = range(9)


@cache
def _form(tp: Any) -> tuple[int, Any]:
    """How values of ``tp`` are decoded, and what with (its arguments, its origin): worked
    out once per type (asking ``typing`` again for every value was most of the time a
    session of 20,000 probe results took to load)."""
    if tp is Any or tp is object:
        return _ANY, None
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return _UNION, typing.get_args(tp)
    if origin is Literal:
        return _LITERAL, typing.get_args(tp)
    if origin in (list, tuple):
        args = typing.get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            return _FIXED, args
        return _ITEMS, (args[0] if args else Any, origin is tuple)
    if origin is dict:
        return _MAP, (typing.get_args(tp) or (str, Any))[1]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _ENUM, None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _DATACLASS, None
    return _SCALAR, None


def _decode(tp: Any, data: Any, where: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise SessionError(f"at {where}: nested deeper than {MAX_DEPTH} levels")
    if type(data) is tp and (tp is str or tp is int or tp is bool):
        return data  # most values: what _decode_scalar returns for them
    form, how = _form(tp)
    if form == _ANY:
        return data
    if form == _UNION:
        return _decode_union(how, data, where, depth)
    if form == _LITERAL:
        if data in how:
            return data
        raise SessionError(f"at {where}: expected one of {list(how)}")
    if form in (_ITEMS, _FIXED):
        if not isinstance(data, list):
            raise _fail(where, "an array", data)
        if form == _FIXED:
            if len(how) != len(data):
                raise SessionError(f"at {where}: expected {len(how)} items, found {len(data)}")
            return tuple(
                _decode(a, d, f"{where}/{i}", depth + 1)
                for i, (a, d) in enumerate(zip(how, data, strict=True))
            )
        item, is_tuple = how
        items = [_decode(item, d, f"{where}/{i}", depth + 1) for i, d in enumerate(data)]
        return tuple(items) if is_tuple else items
    if form == _MAP:
        if not isinstance(data, dict):
            raise _fail(where, "an object", data)
        return {k: _decode(how, v, f"{where}/{k}", depth + 1) for k, v in data.items()}
    if form == _ENUM:
        try:
            return tp(data)
        except ValueError:
            raise SessionError(f"at {where}: {data!r} is not a known {tp.__name__}") from None
    if form == _DATACLASS:
        return _decode_dataclass(tp, data, where, depth)
    return _decode_scalar(tp, data, where)


def _decode_scalar(tp: Any, data: Any, where: str) -> Any:
    if tp is float and isinstance(data, int | float) and not isinstance(data, bool):
        return float(data)
    if tp is int and isinstance(data, bool):
        raise _fail(where, "an integer", data)
    if tp in (str, int, bool) and isinstance(data, tp):
        return data
    if tp is type(None) and data is None:
        return None
    name = getattr(tp, "__name__", str(tp))
    raise _fail(where, name, data)


@cache
def _members(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """Each ``__init__`` member of the dataclass ``cls``: name, type, whether it has a default."""
    hints = _hints(cls)
    return tuple(
        (
            f.name,
            hints[f.name],
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
        if f.init
    )


def _decode_dataclass(cls: type, data: Any, where: str, depth: int) -> Any:
    if not isinstance(data, dict):
        raise _fail(where, f"a {cls.__name__} object", data)
    kwargs: dict[str, Any] = {}
    for name, hint, has_default in _members(cls):
        if name not in data:
            if has_default:
                continue  # written by an older version: keep the default
            raise SessionError(f"at {where}: missing member '{name}' of {cls.__name__}")
        kwargs[name] = _decode(hint, data[name], f"{where}/{name}", depth + 1)
    return cls(**kwargs)
