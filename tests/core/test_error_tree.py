"""Every error sia-tui raises on purpose is a SiaError, and core/errors.py lists them all."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import sia_tui
import sia_tui.core.errors
from sia_tui.core.engine.outcome import StepEnds, StepFailed, StepWaits
from sia_tui.core.errors import SiaError


def _exception_classes() -> list[tuple[str, type[BaseException]]]:
    """(module, class) for every exception class defined in a sia_tui module."""
    found = []
    for info in pkgutil.walk_packages(sia_tui.__path__, "sia_tui."):
        if info.name == "sia_tui.__main__":
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == info.name:
                found.append((info.name, cls))
    return found


CLASSES = _exception_classes()


def test_public_errors_are_sia_errors_in_every_layer() -> None:
    """docs/ARCHITECTURE.md: never a bare Exception (private control-flow signals aside),
    in the core, the agent, the CLI and the TUI alike."""
    assert any(module.startswith("sia_tui.tui") for module, _ in CLASSES)  # the TUI is walked
    stray = [
        f"{module}.{cls.__name__}"
        for module, cls in CLASSES
        if not cls.__name__.startswith("_")
        and cls not in (StepFailed, StepEnds, StepWaits)
        and not issubclass(cls, SiaError)
    ]
    assert stray == []


@pytest.mark.parametrize(
    "cls", [cls for _, cls in CLASSES if issubclass(cls, SiaError)], ids=lambda c: c.__name__
)
def test_the_documented_tree_names_every_sia_error(cls: type[SiaError]) -> None:
    tree = sia_tui.core.errors.__doc__ or ""
    assert re.search(rf"[─ ]{cls.__name__}\b", tree), f"core/errors.py does not list {cls}"


def test_step_failed_is_outside_the_tree_as_documented() -> None:
    """A step's ``except SiaError`` around a transport call must never swallow StepFailed."""
    assert not issubclass(StepFailed, SiaError) and not issubclass(StepEnds, SiaError)
    assert "StepFailed" in (sia_tui.core.errors.__doc__ or "")
    assert "StepEnds" in (sia_tui.core.errors.__doc__ or "")
