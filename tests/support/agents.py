"""Types shared by tests that start reference agents."""

from __future__ import annotations

from collections.abc import Callable

from sia_tui.agent.serving import RunningAgent

#: The ``reference_agent`` fixture: ``reference_agent(fault="digest-card")`` -> a running agent.
StartAgent = Callable[..., RunningAgent]
