"""The footer of every mode screen: Textual's, rebuilt only when the keys it shows change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget


class KeyFooter(Footer):
    """Textual's ``Footer`` that skips rebuilds which would show the same keys.

    Textual removes and mounts every key widget again on each bindings signal, and a
    single focus change sends two: starting the app rebuilt the footer five times before
    the Agent Card was on screen, each time with a new layout. Here a signal
    rebuilds only when what the footer shows (``shown_keys``) differs from what is on
    screen.
    """

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._composed: tuple[object, ...] | None = None
        """The keys the current children show (None before the first compose)."""

    def shown_keys(self) -> tuple[object, ...]:
        """What ``compose`` shows, and nothing it does not.

        ``Footer`` shows the first shown binding of each action, in order (consecutive
        actions of one group share its label), as its key, key label, description, state
        and tooltip; then the command palette's key. The action's name is never shown:
        when the skill list takes the focus, its ``enter`` (select) replaces the screen's
        (open skill) with the same words, and the footer was rebuilt twice for it.
        """
        app = self.app
        first_of_action: dict[str, tuple[object, ...]] = {}
        palette: tuple[object, ...] = ()
        for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items():
            shown = (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                enabled,
                tooltip,
                binding.group,
            )
            if binding.show:
                first_of_action.setdefault(binding.action, shown)
            if key == app.COMMAND_PALETTE_BINDING:
                palette = (*shown, binding.tooltip)
        return (*first_of_action.values(), palette)

    def compose(self) -> ComposeResult:
        # The screen's keys are known as soon as it composes: show them at once rather than
        # an empty footer rebuilt after the first bindings signal (usually to the same keys).
        self._bindings_ready = True
        self._composed = self.shown_keys()
        for widget in super().compose():
            if self.compact and _is_footer_key(widget):
                # What each key's ``compact`` watcher adds once it is mounted: added now,
                # so each key is styled once, not styled again at once (18 restyles at
                # start-up).
                widget.add_class("-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        if (
            self._bindings_ready
            and screen is self.screen
            and self._composed is not None
            and self._composed == self.shown_keys()
        ):
            return  # the same keys: a rebuild would change nothing on screen
        super().bindings_changed(screen)


def _is_footer_key(widget: Widget) -> bool:
    # By its CSS type name: the FooterKey class lives in a private Textual module.
    return type(widget).__name__ == "FooterKey"
