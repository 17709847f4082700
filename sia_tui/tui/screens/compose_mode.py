"""Mode 8: the chaining panel inside the app, prefilled with the current agent and its skills."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Input

from sia_tui.core.run import Run, Target, advertised_skills
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.screens.compose import ComposePanel


def default_pair(skills: list[str], current: str | None) -> tuple[str, str]:
    """Upstream: the skill being debugged (else the first); downstream: the next other one."""
    if not skills:
        return current or "", ""
    up = current if current in skills else skills[0]
    others = [s for s in skills if s != up]
    return up, others[0] if others else up


class ComposeMode(RunScreen):
    """Compose and diff, defaulting both sides to the agent on screen (RULES CMP1-CMP3)."""

    HELP = ComposePanel.HELP
    #: Off the fields, so the number keys switch screens.
    ARRIVAL_FOCUS = "#compose"
    BINDINGS = [
        *ComposePanel.BINDINGS,
        Binding("escape", "leave_fields", "Leave field", id="compose.leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._prefilled_for: str | None = None
        """The agent location the fields were last prefilled from."""

    def compose_body(self) -> ComposeResult:
        panel = ComposePanel()
        panel.refuse = self.sia.refuse_if_read_only  # a recorded session never sends
        yield panel

    @property
    def panel(self) -> ComposePanel:
        """The compose and diff panel."""
        return self.query_one(ComposePanel)

    def show_run(self, run: Run | None) -> None:
        """The pickers and fields from the current agent (once per agent)."""
        if run is not None and run.card is not None:
            self._prefill(run)

    def _prefill(self, run: Run) -> None:
        assert run.card is not None
        skills = advertised_skills(run.card)
        location = run.target.location
        if location == self._prefilled_for:
            return
        self._prefilled_for = location
        for side in ("left", "right"):
            self.panel.set_skill_choices(side, skills)
        up, down = default_pair(skills, run.skill_id or run.target.skill_id)
        for side, skill in (("left", up), ("right", down)):
            self.panel.set_agent(side, location)
            self.query_one(f"#{side}-skill", Input).value = skill

    def action_leave_fields(self) -> None:
        """Leave a text field so number keys switch screens again."""
        self.query_one("#compose", Button).focus()

    def action_run_compose(self) -> None:
        self.panel.action_run_compose()

    def action_run_diff(self) -> None:
        self.panel.action_run_diff()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in an agent field loads that agent's advertised skills into its picker.
        if event.input.id in ("left-card", "right-card") and event.value.strip():
            event.stop()
            if not self.sia.refuse_if_read_only():
                location = self.panel.agent_location(event.value.strip())
                self._load_skills(event.input.id.removesuffix("-card"), location)

    @work(exclusive=True, group="compose-skills")
    async def _load_skills(self, side: str, location: str) -> None:
        # Step 1 only (the card), through the app's engine factory: same options, same limits.
        engine = self.sia.engine_factory(Target(location), self.sia.options, lambda *_args: None)
        try:
            await engine.step()
            card = engine.run.card
        except Exception as exc:  # noqa: BLE001 - a bad agent is a notice, not a crash
            self.notify(f"Cannot read that card: {type(exc).__name__}", severity="error")
            return
        finally:
            await engine.aclose()
        skills = advertised_skills(card) if card is not None else []
        self.panel.set_skill_choices(side, skills)
        self.notify(f"{len(skills)} advertised skill(s) on that agent.")
