"""What the app shows of its own accord: toasts, and the report of a crash.

Every toast is plain text with control characters made visible and secrets masked, since
many quote agent text (a skill id, an error): ``notify`` is the one door, Textual's own
calls included. The app owns its toasts for every screen: only the top screen shows them
(a screen under a dialog shows through it, and Textual keeps only the top one's toasts
current), and a toast withdrawn before it reached the screen never shows. A crash prints
the traceback without local variables and redacted, where Textual's would list the bearer
token, an API key and a URL's password in clear.
"""

from __future__ import annotations

import sys
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App
from textual.notifications import Notification, Notify

from sia_tui.core.redaction import Redactor, crash_report
from sia_tui.tui.display import DisplayPolicy

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from sia_tui.core.a2a import ClientOptions


class SafeOutputApp(App[None]):
    """Toasts and crashes of ``SiaApp`` (its attributes below are set by ``SiaApp``)."""

    display_policy: DisplayPolicy
    options: ClientOptions
    secret_values: list[str]
    secret_headers: list[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._posted: list[Notification] = []
        """Toasts ``notify`` posted that have not reached the screen yet."""
        self._withdrawn: set[str] = set()
        """The identities of posted toasts withdrawn before they reached the screen."""

    def secret_location(self) -> str | None:
        """The target whose URL may hold a password (``SiaApp`` knows it)."""
        return None

    def issued_secrets(self) -> tuple[tuple[str, str], ...]:
        """The secrets issued during the run on screen (``Run.issued``; ``SiaApp`` has one)."""
        return ()

    def crash_redactors(self) -> list[Redactor]:
        """Every secret the app was given or fetched, for a crash report (``MatrixApp`` adds
        each plugfest agent's)."""
        return [
            Redactor.from_options(
                self.options,
                location=self.secret_location(),
                secret_values=self.secret_values,
                secret_headers=self.secret_headers,
                issued=self.issued_secrets(),
            )
        ]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a toast; never markup, whatever ``markup`` says (messages quote agents)."""
        # Textual's ``notify`` builds the same notification; built here, it is known until it
        # reaches the screen (a message later), so ``withdraw_notices`` can stop it too.
        policy = self.display_policy
        notification = Notification(
            policy.visible(message),
            title=policy.visible(title, multiline=False),
            severity=severity,
            timeout=self.NOTIFICATION_TIMEOUT if timeout is None else timeout,
            markup=False,
        )
        self._posted.append(notification)
        self.post_message(Notify(notification))

    def on_notify(self, event: Notify) -> None:
        # Runs before Textual's own handler adds the toast (``App._on_notify``, later in the
        # MRO): one toast per kind, so a newer one replaces the older instead of stacking.
        notification = event.notification
        with suppress(ValueError):
            self._posted.remove(notification)
        if notification.identity in self._withdrawn:
            self._withdrawn.discard(notification.identity)
            event.prevent_default()  # withdrawn on its way: Textual's handler never adds it
            return
        kind = notice_kind(notification)
        for shown in [n for n in self._notifications if notice_kind(n) == kind]:
            self._unnotify(shown, refresh=False)

    def withdraw_notices(self, title: str) -> None:
        """Take down the toasts titled ``title``: what they said is no longer true (a
        "Sending invocation 3 of 3" once it was sent), also one posted but not yet shown
        (a worker's ``notify`` reaches the screen a message later)."""
        for notification in [n for n in self._posted if n.title == title]:
            self._posted.remove(notification)
            self._withdrawn.add(notification.identity)
        stale = [n for n in self._notifications if n.title == title]
        for notification in stale:
            self._unnotify(notification, refresh=False)
        if stale:
            self._refresh_notifications()

    def _refresh_notifications(self) -> None:
        # Textual calls this (a private method of ``App``, the one overridden here) whenever
        # a toast is added, withdrawn or cleared and when a screen comes to the top, and
        # refreshes the top screen's toasts only. A screen under a dialog shows through it,
        # and so would its toasts that are gone (a cleared "Queued" behind the step-8
        # question). So only the top screen shows toasts: every one the app has; a screen
        # shows its own again when it is back on top (Textual refreshes it then).
        # tests/tui/test_toasts.py fails if this stops being called.
        super()._refresh_notifications()
        for screen in self.screen_stack[:-1]:
            # Later: after a ``show`` Textual may have queued for it when it was on top.
            self.call_later(_hide_toasts, screen)

    def _fatal_error(self) -> None:
        # Textual's crash report (``App._fatal_error``, called by ``_handle_exception`` in the
        # handler of the exception) shows every frame's locals and has no public hook.
        # tests/hostile/test_crash_secrets.py fails if this stops being the one called.
        error = sys.exception()
        report = "sia-tui stopped on an error"
        if error is not None:
            report = crash_report(error, *self.crash_redactors())
        self.bell()
        self.panic(Text(self.display_policy.visible(report)))


def _hide_toasts(screen: Screen[Any]) -> None:
    # By the type's name: Textual does not export ToastRack (its module is private).
    for rack in screen.query_children("ToastRack"):
        rack.display = False


def notice_kind(notification: Notification) -> str:
    """What a toast is about: its title, else its text (two with the same kind never
    show at once)."""
    return notification.title or notification.message
