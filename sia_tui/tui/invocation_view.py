"""Which invocation of the run the screens show: the latest, or an earlier one (``[`` / ``]``).

A run that sent the skill several times keeps each invocation with its own verdict
(``Run.invocations``); every screen reads ``current_run``, so showing an earlier one is
choosing which run that is. Sending anything shows the latest again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sia_tui.tui.exports import ExportsApp

if TYPE_CHECKING:
    from sia_tui.core.run import Invocation, Run
    from sia_tui.tui.engine import Engine


class InvocationViewApp(ExportsApp):
    """The invocation on screen, for ``SiaApp``: its subclass sets ``engine``."""

    engine: Engine | None
    _shown: tuple[Run, int] | None = None
    """(the engine's run, the number of the earlier invocation shown), None: the latest."""

    def request_redraw(self) -> None:
        """Redraw the current screen from the run (``SiaApp``)."""
        raise NotImplementedError

    @property
    def current_run(self) -> Run | None:
        """The run on screen: the engine's, or the earlier invocation of it chosen with [."""
        run = self.engine.run if self.engine is not None else None
        shown = self._shown
        if run is None or shown is None or shown[0] is not run:
            return run  # another run since (restart, another target): its latest
        return run.invocations[shown[1] - 1].run

    @property
    def shown_invocation(self) -> Invocation | None:
        """The invocation on screen when the run holds several, else None."""
        run = self.engine.run if self.engine is not None else None
        if run is None or not run.past_invocations:
            return None
        shown = self._shown
        number = shown[1] if shown is not None and shown[0] is run else None
        return run.invocations[(number or len(run.invocations)) - 1]

    def show_latest_invocation(self) -> None:
        """The screens follow the run again (before anything is sent)."""
        self._shown = None

    def action_show_invocation(self, step: int) -> None:
        """Show the previous (-1) or next (+1) invocation of the run."""
        shown = self.shown_invocation
        if shown is None or self.engine is None:
            self.notify("This run has one invocation.", title="Invocations")
            return
        number = min(max(shown.number + step, 1), shown.total)
        run = self.engine.run
        self._shown = None if number == shown.total else (run, number)
        later = "" if number == shown.total else "; ] shows the later ones"
        self.notify(f"Showing invocation {number} of {shown.total}{later}.", title="Invocations")
        self.request_redraw()
