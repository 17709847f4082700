"""``sia-session/1`` files: save, load, history, replay, rerun and reports (issue #6)."""

from sia_tui.core.session.dataclass_json import SessionError
from sia_tui.core.session.format import FORMAT, LoadedSession
from sia_tui.core.session.history import autosave, list_history
from sia_tui.core.session.store import load_session, preview_redactions, save_session

__all__ = [
    "FORMAT",
    "LoadedSession",
    "SessionError",
    "autosave",
    "list_history",
    "load_session",
    "preview_redactions",
    "save_session",
]
