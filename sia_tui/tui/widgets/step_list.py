"""The eleven steps with status icons in theme colours and a spinner while one runs."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from sia_tui.core.engine import StepResult, StepStatus

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


class StepList(OptionList):
    """Lists step results; highlighting one shows its evidence (``OptionHighlighted``)."""

    DEFAULT_CSS = """
    StepList { width: 52; height: 1fr; border: round $panel; }
    StepList:focus { border: round $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._frame = 0
        """Spinner frame for the running step."""
        self._steps: list[StepResult] = []
        """The results last shown."""

    def on_mount(self) -> None:
        self._spinner = self.set_interval(0.1, self._spin, pause=True)
        """Animates the running step; paused when nothing runs."""

    def show_steps(self, steps: list[StepResult]) -> None:
        """Redraw every step, keeping the highlighted row."""
        self._steps = list(steps)
        keep = self.highlighted
        self.clear_options()
        self.add_options([Option(self._prompt(s), id=f"step-{s.step}") for s in steps])
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
            (result.title, colour if result.status is StepStatus.FAILED else ""),
        )

    def _spin(self) -> None:
        self._frame += 1
        for index, result in enumerate(self._steps):
            if result.status is StepStatus.RUNNING:
                self.replace_option_prompt_at_index(index, self._prompt(result))
