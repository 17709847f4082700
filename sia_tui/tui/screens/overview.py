"""Mode 1: the Agent Card rendered, the extension's advertised skills, and the skill picker."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from sia_tui.core.a2a import AgentCard, CardSkill, plan_for
from sia_tui.core.constants import DESCRIBE_SKILL
from sia_tui.core.run import Run, Step, StepStatus
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.modes import mode_key
from sia_tui.tui.render.plain_a2a import (
    CONSOLE_OFFER,
    has_schema_interface,
    lacks_extension,
    steps_do_not_apply,
)
from sia_tui.tui.render.trust import signatures_content
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.widgets.literal import LiteralOptionList, LiteralStatic, option

ADV4_STATEMENT = (
    "This agent does not conform to the schema-interface extension (RULES ADV4): "
    "{why}. No schemas are inferred from descriptions or media types, and nothing "
    "here is claimed as schema-interface conformance."
)


#: Hex characters of a digest shown in lists (the Digests screen shows all of them).
SHORT_DIGEST_HEX = 16


def short_digest(digest: str) -> str:
    """``sha256:`` and the first 16 hex characters, then ``…``; other text unchanged."""
    algorithm, sep, hex_part = digest.partition(":")
    if not sep or len(hex_part) <= SHORT_DIGEST_HEX:
        return digest
    return f"{algorithm}:{hex_part[:SHORT_DIGEST_HEX]}…"


def card_content(card: AgentCard, policy: DisplayPolicy) -> Content:
    """The card as a person reads it; every string is agent-sent, so shown literally."""
    literal = policy.literal
    lines: list[Content] = [
        literal(card.name, style="bold $primary"),
        literal(card.description, multiline=True),
    ]
    provider = card.provider or {}
    lines.append(
        Content.assemble(
            ("version ", "bold"),
            literal(card.version),
            ("   provider ", "bold"),
            literal(provider.get("organization", "(none)")),
        )
    )
    lines.append(Content.styled("\nInterfaces", "bold underline"))
    for interface in card.interfaces:
        note = "" if interface.callable else "  (shown, never called)"
        lines.append(
            Content.assemble(
                "  ",
                literal(f"[{interface.badge}]", style="bold $accent"),
                " ",
                literal(interface.url),
                (note, "$text-muted"),
            )
        )
    lines.append(Content.styled("\nCapabilities", "bold underline"))
    lines.append(Content(f"  streaming: {'yes' if card.streaming else 'no'}"))
    lines.append(Content.styled("\nSecurity schemes", "bold underline"))
    if card.security_schemes:
        for scheme in card.schemes:
            lines.append(
                Content.assemble(
                    "  ", literal(scheme.name, style="bold"), ": ", literal(scheme.label)
                )
            )
            if scheme.description and scheme.kind.value != "mutualTLS":
                lines.append(Content("    ") + literal(scheme.description, style="$text-muted"))
        lines.append(
            Content.assemble(
                "  card requires: ", literal(plan_for(card, None, ()).requires, style="italic")
            )
        )
    else:
        lines.append(Content.styled("  (none declared)", "$text-muted"))
    lines.append(Content.styled("\nSchema-interface extension", "bold underline"))
    ad = card.schema_interface
    if ad is None:
        lines.append(
            Content.styled(
                ADV4_STATEMENT.format(why="the card carries no schema-interface extension"),
                "bold $warning",
            )
        )
        lines.append(Content.styled(CONSOLE_OFFER, "bold $accent"))
    else:
        lines.append(
            Content.assemble(
                "  interface_version ",
                literal(ad.interface_version),
                f"   required {str(ad.required).lower()}",
            )
        )
        for binding in ad.bindings:
            lines.append(
                Content.assemble(
                    "  • ",
                    literal(binding.skill_id, style="bold"),
                    "  v",
                    literal(binding.skill_version),
                )
            )
            # Shortened so it never wraps to a bare tail; the Digests screen (3) has it whole.
            lines.append(
                Content.assemble(
                    "    ", literal(short_digest(binding.interface_digest), style="$secondary")
                )
            )
        if card.skill(DESCRIBE_SKILL) is None:
            lines.append(
                Content.styled(
                    ADV4_STATEMENT.format(why="the card lists no describe_skill skill"),
                    "bold $warning",
                )
            )
    for warning in card.warnings:
        lines.append(Content.styled("forgiven: ", "$warning") + literal(warning))
    return Content("\n").join(lines)


def _auth_line(
    card: AgentCard, skill: CardSkill, run: Run, literal: Callable[..., Content]
) -> tuple[str | Content, ...]:
    """A skill's requirement and what sia-tui sends (or how to), when the card has any."""
    if not card.schemes and card.security_requirements is None:
        return ()
    plan = plan_for(card, skill.id, run.credentials)
    mark, style = ("✔", "$success") if plan.satisfied else ("✘", "$error")
    said = plan.sends if plan.satisfied else plan.missing
    return (
        "\n   ",
        Content.styled(f"{mark} auth ", style),
        literal(f"{plan.requires}: {said}", style="$text-muted"),
    )


def _no_skill(run: Run | None) -> str:
    """Why Enter has no skill to open."""
    if run is not None and run.card is not None:
        return "The Agent Card lists no skill."
    first = run.step(Step.CARD) if run is not None else None
    if first is not None and first.status is StepStatus.FAILED:
        how = f"press {mode_key('steps')} then R to retry step 1"
    else:
        how = "press r to run the steps"
    return f"No Agent Card yet, so no skill to open: {how}, or c to connect."


def _no_card(run: Run | None, policy: DisplayPolicy) -> Content:
    """Why there is no card: step 1's failure with its hint, or how to fetch one."""
    literal = policy.literal
    first = run.step(Step.CARD) if run is not None else None
    if first is None or first.status is not StepStatus.FAILED:
        return Content("No Agent Card yet. Press r to run the steps, or c to connect.")
    lines = [
        Content.assemble(("✘ step 1 failed: ", "bold $error"), literal(first.title, style="bold")),
        literal(first.message, multiline=True),
    ]
    if first.hint:
        lines.append(Content.styled("hint: ", "bold") + literal(first.hint, multiline=True))
    lines.append(
        Content.styled(
            f"\nPress {mode_key('steps')} then R to retry step 1, or c to connect to another "
            "agent.",
            "$text-muted",
        )
    )
    return Content("\n").join(lines)


#: Enter opens the highlighted skill, from the list or from the card beside it.
_OPEN_TOOLTIP = "Run the steps on the highlighted skill (no schema interface: the console)"


class SkillList(LiteralOptionList):
    """The skill picker: its Enter shown in the footer (OptionList hides it)."""

    BINDINGS = [Binding("enter", "select", "Open skill", id="overview.open", tooltip=_OPEN_TOOLTIP)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # An empty list selects nothing: Enter goes on to the screen's, which says why.
        return action != "select" or self.option_count > 0

    def fill(self, prompts: list[Option], current: int | None) -> None:
        """Show ``prompts``, ``current`` highlighted and scrolled into view (each option is
        measured at the width it is drawn: ``LiteralOptionList``)."""
        self.clear_options()
        self.add_options(prompts)
        self.highlighted = current


class OverviewScreen(RunScreen):
    """What the agent says about itself; pick the skill to debug on the right."""

    HELP = (
        "The Agent Card. The skill list has the focus: Enter on a skill the extension "
        "advertises runs the steps on it; Enter on any other skill opens it in the plain "
        "A2A console. r runs the steps on the current skill (●). Enter in the card opens the "
        "skill highlighted in the list."
    )
    BINDINGS = [
        Binding("enter", "open_skill", "Open skill", id="overview.open", tooltip=_OPEN_TOOLTIP),
        Binding("r", "run_steps", "Run steps", id="overview.run", tooltip="Run the steps"),
        Binding("c", "app.connect", "Connect…", id="overview.connect"),
        ZOOM,
    ]
    COLLAPSIBLE = "#card"
    #: Focus the skill list from the start (not the card, then the list: each focus change
    #: rebuilds the footer).
    AUTO_FOCUS = "#skills"
    DEFAULT_CSS = """
    OverviewScreen #card { width: 1fr; min-width: 30; border: round $panel; padding: 0 1; }
    OverviewScreen #skills-pane { width: 1fr; min-width: 30; max-width: 60; }
    OverviewScreen #skills { height: 1fr; border: round $panel; }
    OverviewScreen #skills:focus { border: round $primary; }
    OverviewScreen #skill-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._skills: list[CardSkill] = []
        """The card's skills, in list order."""

    def compose_body(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="card"):
                yield LiteralStatic(id="card-body")
            with Vertical(id="skills-pane"):
                yield SkillList(id="skills")
                yield LiteralStatic("", id="skill-note")

    def on_mount(self) -> None:
        self.query_one("#skills", OptionList).focus()

    def show_run(self, run: Run | None) -> None:
        body = self.query_one("#card-body", Static)
        skills = self.query_one("#skills", SkillList)
        self._skills = []
        if run is None or run.card is None:
            skills.clear_options()
            body.update(_no_card(run, self.policy))
            self._note(run)
            return
        card = run.card
        signatures = signatures_content(run.answers.card_signatures, self.policy)
        shown = card_content(card, self.policy)
        body.update(shown if signatures is None else Content("\n").join([shown, signatures]))
        advertised = (
            {b.skill_id: b for b in card.schema_interface.bindings}
            if (card.schema_interface)
            else {}
        )
        chosen = run.skill_id or run.target.skill_id
        literal = self.policy.literal
        self._skills = list(card.skills)
        # One batch: each add_option re-measures the whole list, quadratic for a card
        # with thousands of skills.
        prompts: list[Option] = []
        for skill in card.skills:
            mark = "●" if skill.id == chosen else " "
            ad = advertised.get(skill.id)
            if skill.id == DESCRIBE_SKILL:
                badge = ("  (the extension's own skill)", "$text-muted")
            elif ad:
                badge = (f"  schema v{ad.skill_version}", "$success")
            else:
                badge = ("  (no schema interface)", "$text-muted")
            tags = ", ".join(skill.tags)
            prompt = Content.assemble(
                (f"{mark} ", "bold $accent"),
                literal(skill.name, style="bold"),
                badge,
                "\n   ",
                literal(skill.id, style="$secondary"),
                "\n   ",
                literal(skill.description[:120], style="italic"),
                "\n   ",
                literal(f"tags: {tags}" if tags else "no tags", style="$text-muted"),
                *_auth_line(card, skill, run, literal),
            )
            # describe_skill is how documents are fetched, not a skill to debug (RULES ADV2).
            prompts.append(
                option(prompt, id=f"skill-{skill.id}", disabled=skill.id == DESCRIBE_SKILL)
            )
        current = next((i for i, s in enumerate(card.skills) if s.id == chosen), None)
        if current is None:
            current = next((i for i, s in enumerate(card.skills) if s.id != DESCRIBE_SKILL), None)
        skills.fill(prompts, current)
        self._note(run)

    def _note(self, run: Run | None) -> None:
        note = self.query_one("#skill-note", Static)
        if lacks_extension(run):
            assert run is not None
            note.update(
                steps_do_not_apply()
                + Content.styled("\nEnter on a skill opens it in the console.", "$text-muted")
            )
        else:
            note.update(
                "Enter: run the steps on the highlighted skill (no schema interface: open it "
                f"in the A2A console, {mode_key('console')})."
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_index >= len(self._skills):
            return
        self._open(self._skills[event.option_index])

    def action_open_skill(self) -> None:
        """Enter outside the list (the card has the focus): open the highlighted skill."""
        skills = self.query_one(SkillList)
        index = skills.highlighted
        if not self._skills:
            self.notify(_no_skill(self.sia.current_run), title="No skill", severity="warning")
            return
        if index is None or index >= len(self._skills):
            self.notify("Highlight a skill in the list on the right (Tab), then press Enter.")
            return
        self._open(self._skills[index])

    def _open(self, skill: CardSkill) -> None:
        run = self.sia.current_run
        if not has_schema_interface(run, skill.id):
            # Plain A2A: the eleven steps do not apply; the console talks to it.
            self.sia.open_console(skill.id)
            return
        other = run is not None and (run.skill_id or run.target.skill_id) != skill.id
        if other and not self.sia.choose_skill(skill.id):
            return  # refused (and said why): the steps of the skill before it are not run
        self.action_run_steps()

    def action_run_steps(self) -> None:
        """Run the steps on the current skill and watch them on the Steps screen."""
        run = self.sia.current_run
        if lacks_extension(run):
            self.notify(CONSOLE_OFFER, title="Steps 3-11 do not apply")
        self.sia.action_run_all()
        self.app.switch_mode("steps")
