"""Mode 2: the eleven steps on the left, the selected step's evidence on the right."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widgets import OptionList

from sia_tui.core.run import Run, StepStatus
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT
from sia_tui.tui.render.evidence import step_content
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.widgets.literal import LiteralStatic
from sia_tui.tui.widgets.step_list import StepList


class StepsScreen(RunScreen):
    """The stepper: run steps one at a time or to the end, and read why each passed or failed."""

    HELP = (
        "Run the eleven steps of the draft's procedure and read each step's evidence. "
        "s shows secrets in clear on this screen only; z hides the step list."
    )
    BINDINGS = [
        Binding("n", "app.run_next", "Next", id="step.next", tooltip="Run the next step"),
        Binding("r", "app.run_all", "Run all", id="step.run_all", tooltip="Run every step"),
        Binding(
            "R", "app.restart", "Restart", id="step.restart", tooltip="From step 1, card re-fetched"
        ),
        Binding("p", "toggle_pretty", "Raw", id="step.pretty", tooltip="Pretty or raw bodies"),
        Binding(
            "s",
            "toggle_secrets",
            "Secrets",
            id="step.secrets",
            tooltip="Show secrets in clear on this screen (credentials, marked values)",
        ),
        Binding("a", "show_all", "All", id="step.show_all", tooltip="Show large bodies whole"),
        ZOOM,
    ]
    COLLAPSIBLE = "#step-list"
    DEFAULT_CSS = """
    StepsScreen #evidence { width: 3fr; border: round $panel; padding: 0 1; }
    StepsScreen #evidence:focus { border: round $primary; }
    """

    pretty: reactive[bool] = reactive(True)
    """Bodies pretty-printed (True) or raw bytes as received (False)."""
    reveal_secrets: reactive[bool] = reactive(False)
    """Whether credential headers are shown in clear."""
    show_everything: reactive[bool] = reactive(False)
    """Whether large bodies are rendered in full (off: cut at DEFAULT_VIEW_LIMIT)."""

    def __init__(self) -> None:
        super().__init__()
        self._shown_failure: int | None = None
        """The failed step last shown, so a new failure moves the highlight once."""
        self._shown_finished = 0
        """How many steps had passed at the last redraw."""
        self._evidence_of: int | None = None
        """The row whose evidence is on the right (None: none drawn yet)."""

    def compose_body(self) -> ComposeResult:
        with Horizontal():
            yield StepList(id="step-list")
            with VerticalScroll(id="evidence"):
                yield LiteralStatic(id="evidence-body")

    def on_mount(self) -> None:
        self.query_one(StepList).focus()

    def show_run(self, run: Run | None) -> None:
        step_list = self.query_one(StepList)
        if run is None:
            step_list.clear_options()
            self.query_one("#evidence-body", LiteralStatic).update("Not connected.")
            return
        step_list.show_steps(run.steps, self.policy)
        failed = run.failed_step
        failed_number = failed.step if failed else None
        running = next((r.step for r in run.steps if r.status is StepStatus.RUNNING), None)
        finished = sum(r.status is StepStatus.PASSED for r in run.steps)
        if running is not None:
            # Follow the run while it moves, so the evidence on the right is the live step.
            step_list.highlighted = running - 1
        elif failed_number is not None and failed_number != self._shown_failure:
            # A new failure is what the user needs to read: jump to it.
            step_list.highlighted = failed_number - 1
        elif failed_number is None and finished != self._shown_finished and finished:
            # The run moved on and passed: show the last step that ran.
            step_list.highlighted = finished - 1
        elif step_list.highlighted is None:
            step_list.highlighted = 0
        self._shown_finished = finished
        self._shown_failure = failed_number
        self._show_evidence()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index == self._evidence_of:
            # Drawn already: each redraw rebuilds the list, whose highlight goes off and back
            # to the same row, after ``show_run`` drew its evidence (with the run as it is).
            return
        self._show_evidence()

    def _show_evidence(self) -> None:
        run = self.sia.current_run
        index = self.query_one(StepList).highlighted
        self._evidence_of = index
        body = self.query_one("#evidence-body", LiteralStatic)
        if run is None or index is None or index >= len(run.steps):
            body.update("")
            return
        limit = None if self.show_everything else DEFAULT_VIEW_LIMIT
        # ``s`` reveals secrets here only: the other screens keep the app's policy.
        policy = self.policy.revealing(self.reveal_secrets)
        body.update(step_content(run, run.steps[index], policy, pretty=self.pretty, limit=limit))

    def select_step(self, number: int) -> None:
        """Highlight step ``number`` (1-11)."""
        self.query_one(StepList).highlighted = number - 1

    def action_toggle_pretty(self) -> None:
        self.pretty = not self.pretty
        self.say_bodies_shown(self.pretty)

    def action_toggle_secrets(self) -> None:
        # Said aloud: where no secret is on screen, nothing else shows that they are in clear.
        self.reveal_secrets = not self.reveal_secrets
        if self.reveal_secrets:
            self.notify(
                "Secrets in clear on Steps only (credentials, marked values); s masks them.",
                title="Secrets",
                severity="warning",
            )
        else:
            self.notify("Secrets masked again.", title="Secrets")

    def action_show_all(self) -> None:
        self.show_everything = True

    def watch_pretty(self) -> None:
        if self.is_mounted:
            self._show_evidence()

    watch_reveal_secrets = watch_pretty
    watch_show_everything = watch_pretty
