"""Messages the engine bridge and widgets post; small dataclasses with docstrings."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from sia_tui.core.a2a import StreamEvent
from sia_tui.core.run import StepResult


@dataclass
class RunUpdated(Message):
    """The engine changed the run: a step changed state, or a stream event arrived."""

    step: StepResult | None = None
    event: StreamEvent | None = None


@dataclass
class EngineFailed(Message):
    """An engine call raised instead of recording a step result (shown, never a crash)."""

    error: str
