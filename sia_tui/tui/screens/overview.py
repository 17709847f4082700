"""Mode 1: the Agent Card rendered, the extension's advertised skills, and the skill picker."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from sia_tui.core.engine import DESCRIBE_SKILL, AgentCard, Run, StepStatus
from sia_tui.tui.display import literal
from sia_tui.tui.highlight import pretty_json
from sia_tui.tui.screens.base import RunScreen

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


def card_content(card: AgentCard) -> Content:
    """The card as a person reads it; every string is agent-sent, so shown literally."""
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
        for name, scheme in card.security_schemes.items():
            lines.append(
                Content.assemble(
                    "  ",
                    literal(name, style="bold"),
                    ": ",
                    literal(pretty_json(scheme).replace("\n", " ")),
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


def _no_card(run: Run | None) -> Content:
    """Why there is no card: step 1's failure with its hint, or how to fetch one."""
    first = run.steps[0] if run is not None else None
    if first is None or first.status is not StepStatus.FAILED:
        return Content("No Agent Card yet. Press r on the Steps screen (2), or c to connect.")
    lines = [
        Content.assemble(("✘ step 1 failed: ", "bold $error"), literal(first.title, style="bold")),
        literal(first.message, multiline=True),
    ]
    if first.hint:
        lines.append(Content.styled("hint: ", "bold") + literal(first.hint, multiline=True))
    lines.append(
        Content.styled(
            "\nPress 2 then R to retry step 1, or c to connect to another agent.", "$text-muted"
        )
    )
    return Content("\n").join(lines)


class OverviewScreen(RunScreen):
    """What the agent says about itself; pick the skill to debug on the right."""

    HELP = "The Agent Card. Select a skill with Enter to debug it in the other screens."
    BINDINGS = [Binding("c", "app.connect", "Connect…", id="overview.connect")]
    DEFAULT_CSS = """
    OverviewScreen #card { width: 1fr; border: round $panel; padding: 0 1; }
    OverviewScreen #skills-pane { width: 52; }
    OverviewScreen #skills { height: 1fr; border: round $panel; }
    OverviewScreen #skills:focus { border: round $primary; }
    OverviewScreen #skill-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    def compose_body(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="card"):
                yield Static(id="card-body")
            with Vertical(id="skills-pane"):
                yield OptionList(id="skills")
                yield Static("Enter: debug this skill", id="skill-note")

    def show_run(self, run: Run | None) -> None:
        body = self.query_one("#card-body", Static)
        skills = self.query_one("#skills", OptionList)
        skills.clear_options()
        if run is None or run.card is None:
            body.update(_no_card(run))
            return
        card = run.card
        body.update(card_content(card))
        advertised = (
            {b.skill_id: b for b in card.schema_interface.bindings}
            if (card.schema_interface)
            else {}
        )
        chosen = run.skill_id or run.target.skill_id
        for skill in card.skills:
            mark = "●" if skill.id == chosen else " "
            ad = advertised.get(skill.id)
            badge = (
                (f"  schema v{ad.skill_version}", "$success")
                if ad
                else ("  (no schema interface)", "$text-muted")
            )
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
            )
            skills.add_option(Option(prompt, id=f"skill-{skill.id}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        run = self.sia.current_run
        if run is None or run.card is None:
            return
        skill = run.card.skills[event.option_index]
        self.sia.choose_skill(skill.id)
