"""``sia-session/5`` files: save, load, history, replay, rerun and reports.

This package is the session API the CLI and the TUI import (see ``sia_tui.core.engine``):
saving and loading runs, the history, replay and rerun, the bug reports, and redaction.
Names load on first use (``lazy_api``): importing the API is light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api

if TYPE_CHECKING:  # the one list: type checkers read it, exports_of() reads it at run time
    from sia_tui.core.atomic_file import atomic_write as atomic_write
    from sia_tui.core.redaction.crash import crash_report as crash_report
    from sia_tui.core.redaction.redact import MIN_LITERAL_LENGTH as MIN_LITERAL_LENGTH
    from sia_tui.core.redaction.redact import RedactionHit as RedactionHit
    from sia_tui.core.redaction.redact import Redactor as Redactor
    from sia_tui.core.redaction.redact import install_log_redaction as install_log_redaction
    from sia_tui.core.redaction.redact import is_credential_header as is_credential_header
    from sia_tui.core.redaction.redact import placeholder as placeholder
    from sia_tui.core.session import history as history
    from sia_tui.core.session.dataclass_json import SessionError as SessionError
    from sia_tui.core.session.format import LoadedSession as LoadedSession
    from sia_tui.core.session.formats import FORMAT as FORMAT
    from sia_tui.core.session.formats import READABLE_FORMATS as READABLE_FORMATS
    from sia_tui.core.session.formats import readable_range as readable_range
    from sia_tui.core.session.history import autosave as autosave
    from sia_tui.core.session.history import list_history as list_history
    from sia_tui.core.session.invocations import pick_invocations as pick_invocations
    from sia_tui.core.session.reattach import Reattached as Reattached
    from sia_tui.core.session.reattach import reattach_refusal as reattach_refusal
    from sia_tui.core.session.reattach import reattach_task as reattach_task
    from sia_tui.core.session.replay import ReplayResult as ReplayResult
    from sia_tui.core.session.replay import SessionReplay as SessionReplay
    from sia_tui.core.session.replay import replay_session as replay_session
    from sia_tui.core.session.report_har import har_of_run as har_of_run
    from sia_tui.core.session.report_har import render_har as render_har
    from sia_tui.core.session.rerun import RerunResult as RerunResult
    from sia_tui.core.session.rerun import SessionRerun as SessionRerun
    from sia_tui.core.session.rerun import rerun_session as rerun_session
    from sia_tui.core.session.store import load_session as load_session
    from sia_tui.core.session.store import preview_redactions as preview_redactions
    from sia_tui.core.session.store import save_session as save_session

#: Public name -> (module, attribute): the lines above, read once at import.
_EXPORTS = lazy_api.exports_of(__file__)
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
