"""Which invocation of the run the screens show: the latest, or an earlier one (``[`` / ``]``).

A run that sent the skill several times keeps each invocation with its own verdict
(``Run.invocations``); every screen reads ``current_run``, so showing an earlier one is
choosing which run that is. Sending anything shows the latest again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from sia_tui.core.run import Invocation, Run
    from sia_tui.tui.engine_port import Engine


class InvocationViewHost(Protocol):
    """What ``InvocationView`` reads and asks of the app."""

    @property
    def engine(self) -> Engine | None: ...
    def notify(self, message: str, *, title: str = "") -> None: ...
    def request_redraw(self) -> None: ...


class InvocationView:
    """The invocation on screen, a service of ``SiaApp``."""

    def __init__(self, app: InvocationViewHost) -> None:
        self.app = app
        self._shown: tuple[Run, int] | None = None
        """(the engine's run, the number of the earlier invocation shown), None: the latest."""

    @property
    def current_run(self) -> Run | None:
        """The run on screen: the engine's, or the earlier invocation of it chosen with [."""
        engine = self.app.engine
        run = engine.run if engine is not None else None
        shown = self._shown
        if run is None or shown is None or shown[0] is not run:
            return run  # another run since (restart, another target): its latest
        return run.invocations[shown[1] - 1].run

    @property
    def shown_invocation(self) -> Invocation | None:
        """The invocation on screen when the run holds several, else None."""
        engine = self.app.engine
        run = engine.run if engine is not None else None
        if run is None or not run.past_invocations:
            return None
        shown = self._shown
        number = shown[1] if shown is not None and shown[0] is run else None
        return run.invocations[(number or len(run.invocations)) - 1]

    def show_latest(self) -> None:
        """The screens follow the run again (before anything is sent)."""
        self._shown = None

    def show(self, step: int) -> None:
        """Show the previous (-1) or next (+1) invocation of the run (``[`` / ``]``)."""
        shown = self.shown_invocation
        engine = self.app.engine
        if shown is None or engine is None:
            self.app.notify("This run has one invocation.", title="Invocations")
            return
        number = min(max(shown.number + step, 1), shown.total)
        run = engine.run
        self._shown = None if number == shown.total else (run, number)
        later = "" if number == shown.total else "; ] shows the later ones"
        self.app.notify(
            f"Showing invocation {number} of {shown.total}{later}.", title="Invocations"
        )
        self.app.request_redraw()
