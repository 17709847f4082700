"""The reference A2A agent: a real 1.0 server with switchable faults (headless).

Names load on first use (``lazy_api``), so ``sia_tui.agent.mock`` (``sia-tui mock``) loads
the serving pieces it uses and none of the reference agent's skills.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.agent.app import create_app as create_app
    from sia_tui.agent.config import AgentConfig as AgentConfig
    from sia_tui.agent.faults import FAULT_SPECS as FAULT_SPECS
    from sia_tui.agent.faults import Fault as Fault
    from sia_tui.agent.faults import FaultSpec as FaultSpec
    from sia_tui.agent.serving import RunningAgent as RunningAgent
    from sia_tui.agent.serving import start_agent as start_agent

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "AgentConfig": "sia_tui.agent.config",
    "FAULT_SPECS": "sia_tui.agent.faults",
    "Fault": "sia_tui.agent.faults",
    "FaultSpec": "sia_tui.agent.faults",
    "RunningAgent": "sia_tui.agent.serving",
    "create_app": "sia_tui.agent.app",
    "start_agent": "sia_tui.agent.serving",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
