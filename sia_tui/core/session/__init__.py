"""``sia-session/3`` files: save, load, history, replay, rerun and reports (issue #6).

This package is the session API the CLI and the TUI import (see ``sia_tui.core.engine``):
saving and loading runs, the history, replay and rerun, the bug reports, and redaction.
Names load on first use (``lazy_api``): importing the API is light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sia_tui.core import lazy_api
from sia_tui.core.lazy_api import MODULE

if TYPE_CHECKING:
    from sia_tui.core.atomic_file import atomic_write as atomic_write
    from sia_tui.core.redact import MIN_LITERAL_LENGTH as MIN_LITERAL_LENGTH
    from sia_tui.core.redact import RedactionHit as RedactionHit
    from sia_tui.core.redact import Redactor as Redactor
    from sia_tui.core.redact import install_log_redaction as install_log_redaction
    from sia_tui.core.redact import is_credential_header as is_credential_header
    from sia_tui.core.redact import placeholder as placeholder
    from sia_tui.core.session import history as history
    from sia_tui.core.session.dataclass_json import SessionError as SessionError
    from sia_tui.core.session.format import FORMAT as FORMAT
    from sia_tui.core.session.format import READABLE_FORMATS as READABLE_FORMATS
    from sia_tui.core.session.format import LoadedSession as LoadedSession
    from sia_tui.core.session.history import autosave as autosave
    from sia_tui.core.session.history import list_history as list_history
    from sia_tui.core.session.replay import ReplayResult as ReplayResult
    from sia_tui.core.session.replay import replay_session as replay_session
    from sia_tui.core.session.report_html import render_html as render_html
    from sia_tui.core.session.report_md import render_markdown as render_markdown
    from sia_tui.core.session.rerun import RerunResult as RerunResult
    from sia_tui.core.session.rerun import rerun_session as rerun_session
    from sia_tui.core.session.store import load_session as load_session
    from sia_tui.core.session.store import preview_redactions as preview_redactions
    from sia_tui.core.session.store import save_session as save_session

#: Public name -> (module, attribute); MODULE: the module itself.
_EXPORTS: dict[str, tuple[str, str]] = {
    "FORMAT": ("sia_tui.core.session.format", "FORMAT"),
    "MIN_LITERAL_LENGTH": ("sia_tui.core.redact", "MIN_LITERAL_LENGTH"),
    "READABLE_FORMATS": ("sia_tui.core.session.format", "READABLE_FORMATS"),
    "LoadedSession": ("sia_tui.core.session.format", "LoadedSession"),
    "RedactionHit": ("sia_tui.core.redact", "RedactionHit"),
    "Redactor": ("sia_tui.core.redact", "Redactor"),
    "ReplayResult": ("sia_tui.core.session.replay", "ReplayResult"),
    "RerunResult": ("sia_tui.core.session.rerun", "RerunResult"),
    "SessionError": ("sia_tui.core.session.dataclass_json", "SessionError"),
    "atomic_write": ("sia_tui.core.atomic_file", "atomic_write"),
    "autosave": ("sia_tui.core.session.history", "autosave"),
    "history": ("sia_tui.core.session.history", MODULE),
    "install_log_redaction": ("sia_tui.core.redact", "install_log_redaction"),
    "is_credential_header": ("sia_tui.core.redact", "is_credential_header"),
    "list_history": ("sia_tui.core.session.history", "list_history"),
    "load_session": ("sia_tui.core.session.store", "load_session"),
    "placeholder": ("sia_tui.core.redact", "placeholder"),
    "preview_redactions": ("sia_tui.core.session.store", "preview_redactions"),
    "render_html": ("sia_tui.core.session.report_html", "render_html"),
    "render_markdown": ("sia_tui.core.session.report_md", "render_markdown"),
    "replay_session": ("sia_tui.core.session.replay", "replay_session"),
    "rerun_session": ("sia_tui.core.session.rerun", "rerun_session"),
    "save_session": ("sia_tui.core.session.store", "save_session"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_api.resolve(__name__, _EXPORTS, name)
