"""``sia-session/6`` files: save, load, history, replay, rerun and reports.

This package is the session API the CLI and the TUI import (see ``sia_tui.core.engine``):
saving and loading runs, the history, replay and rerun. Redaction is
``sia_tui.core.redaction``'s, writing a file whole ``sia_tui.core.atomic_file``'s.
Names load on first use (``lazy_api``): importing the API is light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # type checkers read these; the table below is the run-time side
    from sia_tui.core.session import history as history
    from sia_tui.core.session.data_location import data_dir as data_dir
    from sia_tui.core.session.dataclass_json import SessionError as SessionError
    from sia_tui.core.session.format import LoadedSession as LoadedSession
    from sia_tui.core.session.formats import FORMAT as FORMAT
    from sia_tui.core.session.formats import READABLE_FORMATS as READABLE_FORMATS
    from sia_tui.core.session.formats import readable_range as readable_range
    from sia_tui.core.session.history import autosave as autosave
    from sia_tui.core.session.history import list_history as list_history
    from sia_tui.core.session.invocations import pick_invocations as pick_invocations
    from sia_tui.core.session.otlp_export import OtlpEndpointRefused as OtlpEndpointRefused
    from sia_tui.core.session.otlp_export import export_run as export_run
    from sia_tui.core.session.otlp_export import traces_url as traces_url
    from sia_tui.core.session.reattach import Reattached as Reattached
    from sia_tui.core.session.reattach import reattach_refusal as reattach_refusal
    from sia_tui.core.session.reattach import reattach_task as reattach_task
    from sia_tui.core.session.replay import ReplayResult as ReplayResult
    from sia_tui.core.session.replay import SessionReplay as SessionReplay
    from sia_tui.core.session.replay import replay_session as replay_session
    from sia_tui.core.session.report_har import har_of_run as har_of_run
    from sia_tui.core.session.report_har import render_har as render_har
    from sia_tui.core.session.report_otlp import render_otlp as render_otlp
    from sia_tui.core.session.rerun import RerunResult as RerunResult
    from sia_tui.core.session.rerun import SessionRerun as SessionRerun
    from sia_tui.core.session.rerun import rerun_session as rerun_session
    from sia_tui.core.session.rerun_target import LiveChoices as LiveChoices
    from sia_tui.core.session.store import load_session as load_session
    from sia_tui.core.session.store import preview_redactions as preview_redactions
    from sia_tui.core.session.store import save_session as save_session

#: Public name -> the module that defines it (tests/test_layering.py holds it to the
#: imports above, which type checkers read).
_EXPORTS: dict[str, str] = {
    "FORMAT": "sia_tui.core.session.formats",
    "LiveChoices": "sia_tui.core.session.rerun_target",
    "LoadedSession": "sia_tui.core.session.format",
    "OtlpEndpointRefused": "sia_tui.core.session.otlp_export",
    "READABLE_FORMATS": "sia_tui.core.session.formats",
    "Reattached": "sia_tui.core.session.reattach",
    "ReplayResult": "sia_tui.core.session.replay",
    "RerunResult": "sia_tui.core.session.rerun",
    "SessionError": "sia_tui.core.session.dataclass_json",
    "SessionReplay": "sia_tui.core.session.replay",
    "SessionRerun": "sia_tui.core.session.rerun",
    "autosave": "sia_tui.core.session.history",
    "data_dir": "sia_tui.core.session.data_location",
    "export_run": "sia_tui.core.session.otlp_export",
    "har_of_run": "sia_tui.core.session.report_har",
    "history": "sia_tui.core.session",
    "list_history": "sia_tui.core.session.history",
    "load_session": "sia_tui.core.session.store",
    "pick_invocations": "sia_tui.core.session.invocations",
    "preview_redactions": "sia_tui.core.session.store",
    "readable_range": "sia_tui.core.session.formats",
    "reattach_refusal": "sia_tui.core.session.reattach",
    "reattach_task": "sia_tui.core.session.reattach",
    "render_har": "sia_tui.core.session.report_har",
    "render_otlp": "sia_tui.core.session.report_otlp",
    "replay_session": "sia_tui.core.session.replay",
    "rerun_session": "sia_tui.core.session.rerun",
    "save_session": "sia_tui.core.session.store",
    "traces_url": "sia_tui.core.session.otlp_export",
}
__all__ = sorted(_EXPORTS)


if not TYPE_CHECKING:  # mypy then checks every name against the imports above

    def __getattr__(name: str) -> Any:
        return lazy_api.resolve(__name__, _EXPORTS, name)
