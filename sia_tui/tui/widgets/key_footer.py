"""The footer of every mode screen: Textual's, rebuilt only when the keys it shows change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class KeyFooter(Footer):
    """Textual's ``Footer`` that skips rebuilds which would show the same keys.

    Textual removes and mounts every key widget again on each bindings signal, and a
    single focus change sends two: starting the app rebuilt the footer five times before
    the Agent Card was on screen, each time with a new layout. Here a signal
    rebuilds only when the shown keys (or their state) differ from what is on screen.
    """

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._composed: tuple[object, ...] | None = None
        """The keys the current children show (None before the first compose)."""

    def _shown_keys(self) -> tuple[object, ...]:
        """What ``compose`` would show: each shown binding with its state and key label."""
        app = self.app
        shown = []
        for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items():
            if binding.show or key == app.COMMAND_PALETTE_BINDING:
                shown.append((key, binding, enabled, tooltip, app.get_key_display(binding)))
        return tuple(shown)

    def compose(self) -> ComposeResult:
        # The screen's keys are known as soon as it composes: show them at once rather than
        # an empty footer rebuilt after the first bindings signal (usually to the same keys).
        self._bindings_ready = True
        self._composed = self._shown_keys()
        yield from super().compose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        if (
            self._bindings_ready
            and screen is self.screen
            and self._composed is not None
            and self._composed == self._shown_keys()
        ):
            return  # the same keys: a rebuild would change nothing on screen
        super().bindings_changed(screen)
