"""Messages the engine bridge and widgets post; small dataclasses with docstrings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from sia_tui.core.run import StepResult

if TYPE_CHECKING:  # the task views load with the first task (step 1 has none)
    from sia_tui.core.a2a import StreamEvent


@dataclass
class RunUpdated(Message):
    """The engine changed the run: a step changed state, or a stream event arrived."""

    step: StepResult | None = None
    event: StreamEvent | None = None


@dataclass
class EngineFailed(Message):
    """An engine call raised instead of recording a step result (shown, never a crash)."""

    error: str
