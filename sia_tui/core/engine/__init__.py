"""The eleven-step client procedure (RULES CP0-CP13), driven by the CLI and the TUI alike.

This package is the engine API: what the CLI and the TUI need to drive a run (the
procedure, its options, the console, the reports of a run). It exports only the engine's
own names: the run's read model is ``sia_tui.core.run``, and each other room has its own
API (a test enforces both). Names load on first use (``lazy_api``), so importing the API
costs nothing until a name is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.engine.cache import DocumentCache as DocumentCache
    from sia_tui.core.engine.console import CONSOLE_MODES as CONSOLE_MODES
    from sia_tui.core.engine.console import ConsoleReply as ConsoleReply
    from sia_tui.core.engine.console import ConsoleRequest as ConsoleRequest
    from sia_tui.core.engine.console import PartKind as PartKind
    from sia_tui.core.engine.offline import OfflineVerdict as OfflineVerdict
    from sia_tui.core.engine.offline import unwrap_payload as unwrap_payload
    from sia_tui.core.engine.offline import verify_offline as verify_offline
    from sia_tui.core.engine.pin import PinResult as PinResult
    from sia_tui.core.engine.pin import pin_agent as pin_agent
    from sia_tui.core.engine.plain_send import send_plain as send_plain
    from sia_tui.core.engine.procedure import Procedure as Procedure
    from sia_tui.core.engine.push import delivery_line as delivery_line
    from sia_tui.core.engine.report_json import evidence_to_json as evidence_to_json
    from sia_tui.core.engine.report_json import finding_to_json as finding_to_json
    from sia_tui.core.engine.report_json import lock_to_json as lock_to_json
    from sia_tui.core.engine.report_json import run_to_json as run_to_json
    from sia_tui.core.engine.report_json import signature_to_json as signature_to_json
    from sia_tui.core.engine.report_junit import run_junit_suite as run_junit_suite
    from sia_tui.core.engine.report_plain import plain_exit_code as plain_exit_code
    from sia_tui.core.engine.report_plain import plain_to_json as plain_to_json
    from sia_tui.core.engine.report_plain import render_plain as render_plain
    from sia_tui.core.engine.report_text import CLI_NEXT as CLI_NEXT
    from sia_tui.core.engine.report_text import render_text as render_text
    from sia_tui.core.engine.task_list import TaskListing as TaskListing
    from sia_tui.core.engine.task_list import task_run as task_run

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "CLI_NEXT": "sia_tui.core.engine.report_text",
    "CONSOLE_MODES": "sia_tui.core.engine.console",
    "ConsoleReply": "sia_tui.core.engine.console",
    "ConsoleRequest": "sia_tui.core.engine.console",
    "DocumentCache": "sia_tui.core.engine.cache",
    "OfflineVerdict": "sia_tui.core.engine.offline",
    "PartKind": "sia_tui.core.engine.console",
    "PinResult": "sia_tui.core.engine.pin",
    "Procedure": "sia_tui.core.engine.procedure",
    "TaskListing": "sia_tui.core.engine.task_list",
    "delivery_line": "sia_tui.core.engine.push",
    "evidence_to_json": "sia_tui.core.engine.report_json",
    "finding_to_json": "sia_tui.core.engine.report_json",
    "lock_to_json": "sia_tui.core.engine.report_json",
    "pin_agent": "sia_tui.core.engine.pin",
    "plain_exit_code": "sia_tui.core.engine.report_plain",
    "plain_to_json": "sia_tui.core.engine.report_plain",
    "render_plain": "sia_tui.core.engine.report_plain",
    "render_text": "sia_tui.core.engine.report_text",
    "run_junit_suite": "sia_tui.core.engine.report_junit",
    "run_to_json": "sia_tui.core.engine.report_json",
    "send_plain": "sia_tui.core.engine.plain_send",
    "signature_to_json": "sia_tui.core.engine.report_json",
    "task_run": "sia_tui.core.engine.task_list",
    "unwrap_payload": "sia_tui.core.engine.offline",
    "verify_offline": "sia_tui.core.engine.offline",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
