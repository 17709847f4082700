"""The base of every mode screen: tab bar, header line, body, footer, redraw on run changes."""

from __future__ import annotations

from typing import cast

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from sia_tui.core.run import Run
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.host import SiaHost
from sia_tui.tui.widgets.key_footer import KeyFooter
from sia_tui.tui.widgets.mode_tabs import ModeTabs
from sia_tui.tui.widgets.target_header import TargetHeader


class SiaAppMixin:
    """For screens of the sia-tui app: the app, as ``self.sia`` (``host.SiaHost``)."""

    @property
    def sia(self) -> SiaHost:
        """The app, as the screens see it (a Protocol: a screen never imports ``app.py``)."""
        assert isinstance(self, Screen)
        return cast(SiaHost, self.app)

    @property
    def policy(self) -> DisplayPolicy:
        """How this screen shows text: the app's policy (secrets masked)."""
        return self.sia.display_policy


#: ``z``: for screens with a ``COLLAPSIBLE`` pane (put it last in their ``BINDINGS``).
ZOOM = Binding("z", "zoom", "Zoom", id="screen.zoom", tooltip="Hide or show the side pane")


class RunScreen(SiaAppMixin, Screen[None]):
    """A mode screen that redraws from the current ``Run``.

    Subclasses override ``compose_body`` and ``show_run``; ``COLLAPSIBLE`` names a side pane
    that ``z`` hides, so a small terminal can give the whole width to the rest.
    """

    #: Short help shown by F1 above the bindings table.
    HELP = ""
    #: A CSS selector of the pane ``z`` hides and shows again ("" when there is none).
    COLLAPSIBLE = ""
    #: A CSS selector of the widget that takes the focus when the user switches to this
    #: screen ("" keeps the focus where it was). Closing a dialog never moves the focus.
    ARRIVAL_FOCUS = ""
    #: Whether the first resume restyles every widget, as Textual does each time a screen
    #: becomes active. A mode screen is resumed right after its widgets were mounted, each
    #: styled as it was mounted with the rules of now: the Overview at start styled all
    #: its widgets twice (some 6 ms before the card is on screen). Later resumes restyle.
    RESTYLE_FIRST_RESUME = False

    def __init__(self) -> None:
        super().__init__()
        self.mode_name = ""
        """The mode this screen shows (set by ``ModeSpec.load``)."""
        self._covered = False
        """A dialog (F1, the palette, a prompt) covers the screen: when it closes, the focus
        stays where the user left it (not in an editor, where the number keys would type)."""
        self.drawn_at: int | None = None
        """``SiaHost.redraws_requested`` when ``refresh_run`` last drew the screen: a redraw
        requested no later than that would show the same (the app skips it)."""
        self._resumed = False
        """The screen was active before (its first resume is right after it was mounted)."""

    def compose(self) -> ComposeResult:
        yield ModeTabs(self.mode_name)
        yield TargetHeader(id="target-header")
        yield from self.compose_body()
        yield KeyFooter(compact=True)

    def compose_body(self) -> ComposeResult:
        """The screen's own widgets."""
        yield from ()

    def say_bodies_shown(self, pretty: bool) -> None:
        """Say how bodies are shown now (``p``): where none is on screen, the key changes
        nothing a person can see."""
        self.notify(
            "Bodies pretty-printed; p shows them raw, as received."
            if pretty
            else "Bodies raw, as received; p pretty-prints them again.",
            title="Bodies",
        )

    def on_screen_suspend(self) -> None:
        # A dialog is pushed onto this screen's stack, so the screen stays in it; switching to
        # another screen takes it out. Set only here: Textual calls each class's
        # ``on_screen_resume`` in the MRO, so the resume must read it without changing it.
        self._covered = self in self.app.screen_stack

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Called before Textual's own handler (the subclass's first), which reads this.
        if not self._resumed and not self.RESTYLE_FIRST_RESUME:
            event.refresh_styles = False
        self._resumed = True
        self.refresh_run()
        if self.ARRIVAL_FOCUS and not self._covered:
            self.query_one(self.ARRIVAL_FOCUS).focus()

    def refresh_run(self) -> None:
        """Redraw the header and body from the app's current run."""
        run = self.sia.current_run
        if not self.is_mounted:
            return  # its widgets are not all there yet: on_screen_resume redraws it
        sia = self.sia
        self.drawn_at = sia.redraws_requested
        self.query_one(TargetHeader).show(
            run,
            self.policy,
            read_only=sia.read_only,
            live_waits=sia.has_live_run,
            invocation=sia.shown_invocation,
        )
        self.show_run(run)

    def show_run(self, run: Run | None) -> None:
        """Redraw the body; screens override."""

    def action_zoom(self) -> None:
        """Hide the side pane (or show it again)."""
        if self.COLLAPSIBLE:
            pane = self.query_one(self.COLLAPSIBLE)
            pane.display = not pane.display
