"""The run model's types imported only for type checkers still decode from a session file.

``session/dataclass_json.DEFERRED_TYPES`` lets a module of the run model keep a type it
names in an annotation under ``TYPE_CHECKING`` (a plain ``check`` never loads the trust
records); reading a session resolves the name on first use. These tests hold the table to
the code: every type a session file can hold resolves, to the class a full import gives.
"""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
import types
import typing
from typing import Any

import pytest

from sia_tui.core.probe.results import ProbeRecord
from sia_tui.core.run import Run
from sia_tui.core.session import dataclass_json
from sia_tui.core.session.format import _ExchangeHead

#: What a session file decodes into: its run, its exchanges, its probe record.
ROOTS = (Run, _ExchangeHead, ProbeRecord)


def _classes_in(hint: Any) -> list[Any]:
    """The dataclasses a resolved type hint names (inside unions, lists, dicts...)."""
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return [hint]
    return [c for arg in typing.get_args(hint) for c in _classes_in(arg)]


def _reachable() -> set[type]:
    """Every dataclass a session file can hold, by the hints the decoder reads."""
    seen: set[type] = set()
    todo: list[type] = list(ROOTS)
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for hint in dataclass_json._hints(cls).values():
            todo.extend(_classes_in(hint))
    return seen


def test_every_type_a_session_holds_resolves_to_the_class_its_module_defines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reachable = _reachable()
    # The deferred trust records are reached (through Target.anchors and the evidence).
    assert {"TrustAnchors", "SignatureCheck", "LockComparison"} <= {c.__name__ for c in reachable}
    # The same hints typing reads when every deferred name is in each module's globals.
    deferred = {n: dataclass_json._DEFERRED_NAMES[n] for n in dataclass_json.DEFERRED_TYPES}
    for module in {sys.modules[base.__module__] for cls in reachable for base in cls.__mro__}:
        for name, value in deferred.items():
            if name not in vars(module):
                monkeypatch.setattr(module, name, value, raising=False)
    for cls in reachable:
        assert dataclass_json._hints(cls) == typing.get_type_hints(cls), cls


def test_each_deferred_name_is_the_class_its_module_defines() -> None:
    """A class defined there, or a union of classes (``StepEvidence``) named there."""
    for name, module in dataclass_json.DEFERRED_TYPES.items():
        value = getattr(importlib.import_module(module), name)
        if isinstance(value, types.UnionType):
            assert all(isinstance(member, type) for member in typing.get_args(value))
            assert name in vars(sys.modules[module])
        else:
            assert value.__module__ == module and value.__name__ == name


def test_a_session_target_with_anchors_decodes_before_the_trust_records_are_loaded() -> None:
    # A fresh interpreter: the run model loads without the records, reading a session
    # that holds anchors loads them then.
    code = """
import sys
from sia_tui.core.run import Target
from sia_tui.core.session.dataclass_json import from_json
assert "sia_tui.core.trust.records" not in sys.modules, "loaded with the run model"
target = from_json(Target, {"location": "http://a", "anchors": {"require_signature": True}})
assert type(target.anchors).__name__ == "TrustAnchors" and target.anchors.require_signature
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr
