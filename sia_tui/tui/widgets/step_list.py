"""The eleven steps with status icons in theme colours and a spinner while one runs."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.run import StepResult, StepStatus
from sia_tui.tui.display import PLAIN, DisplayPolicy
from sia_tui.tui.widgets.literal import LiteralOptionList, option

#: Icon and theme variable per status.
STATUS_LOOK: dict[StepStatus, tuple[str, str]] = {
    StepStatus.PASSED: ("✔", "$step-passed"),
    StepStatus.FAILED: ("✘", "$step-failed"),
    StepStatus.SKIPPED: ("⊘", "$step-skipped"),
    StepStatus.NOT_RUN: ("·", "$text-muted"),
    StepStatus.RUNNING: ("⠋", "$step-running"),
    StepStatus.CANCELLED: ("⊗", "$step-skipped"),
}
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class StepList(LiteralOptionList):
    """Lists step results; highlighting one shows its evidence (``OptionHighlighted``)."""

    DEFAULT_CSS = """
    StepList {
        width: 2fr; min-width: 26; max-width: 52; height: 1fr; border: round $panel;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    StepList:focus { border: round $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._frame = 0
        """Spinner frame for the running step."""
        self._steps: list[StepResult] = []
        """The results last shown."""
        self._policy: DisplayPolicy = PLAIN
        """How their titles are shown (a session's titles are whatever its file says)."""

    def on_mount(self) -> None:
        self._spinner = self.set_interval(0.1, self._spin, pause=True)
        """Animates the running step; paused when nothing runs."""

    def show_steps(self, steps: list[StepResult], policy: DisplayPolicy) -> None:
        """Redraw every step, keeping the highlighted row."""
        self._steps = list(steps)
        self._policy = policy
        keep = self.highlighted
        self.clear_options()
        self.add_options([option(self._prompt(s), id=f"step-{s.step}") for s in steps])
        if keep is not None and keep < len(steps):
            self.highlighted = keep
        running = any(s.status is StepStatus.RUNNING for s in steps)
        if running:
            self._spinner.resume()
        else:
            self._spinner.pause()

    def _prompt(self, result: StepResult) -> Content:
        icon, colour = STATUS_LOOK[result.status]
        if result.status is StepStatus.RUNNING:
            icon = _SPINNER[self._frame % len(_SPINNER)]
        return Content.assemble(
            (f" {icon} ", f"bold {colour}"),
            (f"{result.step:>2} ", "$text-muted"),
            self._policy.literal(
                result.title, style=colour if result.status is StepStatus.FAILED else ""
            ),
        )

    def _spin(self) -> None:
        self._frame += 1
        for index, result in enumerate(self._steps):
            if result.status is StepStatus.RUNNING:
                self.replace_option_prompt_at_index(index, self._prompt(result))
