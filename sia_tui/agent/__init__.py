"""The reference A2A agent: a real 1.0 server with switchable faults (headless)."""

from __future__ import annotations

from sia_tui.agent.app import create_app
from sia_tui.agent.config import AgentConfig
from sia_tui.agent.faults import FAULT_SPECS, Fault, FaultSpec
from sia_tui.agent.serving import RunningAgent, start_agent

__all__ = [
    "FAULT_SPECS",
    "AgentConfig",
    "Fault",
    "FaultSpec",
    "RunningAgent",
    "create_app",
    "start_agent",
]
