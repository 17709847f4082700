"""``sia-tui mock``: a saved session served back as the agent it recorded (headless)."""

from __future__ import annotations

from sia_tui.agent.mock.app import MockConfig, create_mock_app
from sia_tui.agent.mock.recorded import Recording, recording
from sia_tui.agent.mock.serving import RunningMock, serve_mock_forever, start_mock

__all__ = [
    "MockConfig",
    "Recording",
    "RunningMock",
    "create_mock_app",
    "recording",
    "serve_mock_forever",
    "start_mock",
]
