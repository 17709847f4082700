"""Secrets issued during a run (an OAuth2 access token): the one list every surface reads.

The user's credentials are known before the run (``Credentials``); a token the client
fetches is not, so the session redactor, the log filter and the TUI's masking read it from
here. Adding one also teaches the log filter the application installed, at once.
"""

from __future__ import annotations

import threading

from sia_tui.core.redaction.redact import learn_log_secret


class IssuedSecrets:
    """Append-only ``(name, value)`` secrets learned at run time; safe across threads (the
    engine's worker adds, the UI thread reads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[str, str] = {}

    def add(self, value: str, name: str) -> None:
        """Redact and mask ``value`` from now on, wherever it is shown or stored."""
        with self._lock:
            if value in self._items:
                return
            self._items[value] = name
        learn_log_secret(value, name)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every issued secret as ``(name, value)``, oldest first."""
        with self._lock:
            return tuple((name, value) for value, name in self._items.items())

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __repr__(self) -> str:
        return f"IssuedSecrets({len(self)} secrets)"  # never the values
