"""``sia-session/2`` files: save, load, history, replay, rerun and reports (issue #6).

This package is the session API the CLI and the TUI import (see ``sia_tui.core.engine``):
saving and loading runs, the history, replay and rerun, the bug reports, and redaction.
"""

from sia_tui.core.redact import (
    MIN_LITERAL_LENGTH,
    RedactionHit,
    Redactor,
    install_log_redaction,
    is_credential_header,
    placeholder,
)
from sia_tui.core.session import history
from sia_tui.core.session.dataclass_json import SessionError
from sia_tui.core.session.format import FORMAT, READABLE_FORMATS, LoadedSession
from sia_tui.core.session.history import autosave, list_history
from sia_tui.core.session.replay import ReplayResult, replay_session
from sia_tui.core.session.report_html import render_html
from sia_tui.core.session.report_md import render_markdown
from sia_tui.core.session.rerun import RerunResult, rerun_session
from sia_tui.core.session.store import (
    atomic_write,
    load_session,
    preview_redactions,
    save_session,
)

__all__ = [
    "FORMAT",
    "MIN_LITERAL_LENGTH",
    "READABLE_FORMATS",
    "LoadedSession",
    "RedactionHit",
    "Redactor",
    "ReplayResult",
    "RerunResult",
    "SessionError",
    "atomic_write",
    "autosave",
    "history",
    "install_log_redaction",
    "is_credential_header",
    "list_history",
    "load_session",
    "placeholder",
    "preview_redactions",
    "render_html",
    "render_markdown",
    "replay_session",
    "rerun_session",
    "save_session",
]
