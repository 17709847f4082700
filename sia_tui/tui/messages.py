"""Messages the engine bridge and widgets post; small dataclasses with docstrings."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from sia_tui.core.engine import StepResult, StreamEvent


@dataclass
class RunUpdated(Message):
    """The engine changed the run: a step changed state, or a stream event arrived."""

    step: StepResult | None = None
    event: StreamEvent | None = None


@dataclass
class EngineFailed(Message):
    """An engine call raised instead of recording a step result (shown, never a crash)."""

    error: str


@dataclass
class JumpToArtifact(Message):
    """The user followed a ``supporting_record_refs`` link to an artifact id."""

    artifact_id: str
