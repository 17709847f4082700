"""The base of every mode screen: header line, body, footer, and redraw on run changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from sia_tui.core.engine import Run
from sia_tui.tui.widgets.target_header import TargetHeader

if TYPE_CHECKING:
    from sia_tui.tui.app import SiaApp


class SiaAppMixin:
    """For screens of the sia-tui app: the app, typed, as ``self.sia``."""

    @property
    def sia(self) -> SiaApp:
        """The app, typed."""
        from sia_tui.tui.app import SiaApp

        assert isinstance(self, Screen)
        return cast(SiaApp, self.app)


class RunScreen(SiaAppMixin, Screen[None]):
    """A mode screen that redraws from the current ``Run``."""

    #: Short help shown by F1 above the bindings table.
    HELP = ""

    def compose(self) -> ComposeResult:
        yield TargetHeader(id="target-header")
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        """The screen's own widgets."""
        yield from ()

    def on_screen_resume(self) -> None:
        self.refresh_run()

    def refresh_run(self) -> None:
        """Redraw the header and body from the app's current run."""
        run = self.sia.current_run
        if not self.query(TargetHeader):
            return  # not composed yet: on_screen_resume redraws once it is
        self.query_one(TargetHeader).show(
            run, snapshot_mode=self.sia.snapshot_mode, read_only=self.sia.read_only
        )
        self.show_run(run)

    def show_run(self, run: Run | None) -> None:
        """Redraw the body; screens override."""
