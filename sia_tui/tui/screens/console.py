"""Mode 0: the plain A2A console. Any skill of any agent: a text or a data part, sync or
stream; the raw reply on the left, the task's artifacts on the right. No schema, no steps,
no verdict: what the agent sent, shown literally."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Label, Select, Static

from sia_tui.core.a2a import Artifact, CardSkill, Part, StreamEvent
from sia_tui.core.engine import CONSOLE_MODES, ConsoleReply, ConsoleRequest, PartKind
from sia_tui.core.errors import SiaError
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.jsonkit import loads
from sia_tui.core.output import printable, terminal_json
from sia_tui.core.run import Run
from sia_tui.tui.display import DEFAULT_VIEW_LIMIT, DisplayPolicy
from sia_tui.tui.highlight import json_content
from sia_tui.tui.jsontext import pretty_json
from sia_tui.tui.render.exchange import exchange_content
from sia_tui.tui.screens.base import ZOOM, RunScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.literal import LiteralSelect, LiteralStatic, select_options


class ConsoleScreen(RunScreen):
    """Send one message to the agent and read exactly what came back."""

    HELP = (
        "Plain A2A: one user message with a text part or a data part (JSON), sent with "
        "SendMessage (sync) or SendStreamingMessage (stream) to the interface step 1 chose. "
        "It works on any agent and any skill, with or without a schema interface; nothing "
        "is validated and no verdict is given. f4 puts the card skill's next example in the "
        "editor. Esc leaves the editor."
    )
    BINDINGS = [
        Binding("ctrl+j", "send", "Send", id="console.send", tooltip="Send the message"),
        Binding("f4", "next_example", "Example", id="console.example", tooltip="Next example"),
        Binding("p", "toggle_pretty", "Raw", id="console.pretty", tooltip="Pretty or raw bodies"),
        ZOOM,
    ]
    COLLAPSIBLE = "#reply-pane"
    #: The user came here to type a message (Esc leaves the editor for the number keys).
    ARRIVAL_FOCUS = "#message"
    DEFAULT_CSS = """
    ConsoleScreen #console-options { height: 1; margin: 0 1; }
    ConsoleScreen #console-options Label { padding: 0 1 0 0; }
    ConsoleScreen #console-options Select { margin-right: 2; }
    ConsoleScreen #skill { width: 2fr; max-width: 40; }
    ConsoleScreen #part { width: 12; }
    ConsoleScreen #mode { width: 12; }
    ConsoleScreen #message { height: 30%; min-height: 4; }
    ConsoleScreen #console-status { height: auto; max-height: 3; padding: 0 1; }
    ConsoleScreen .pane {
        width: 1fr; border: round $panel; padding: 0 1; border-title-color: $foreground;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.pretty = True
        """Bodies pretty-printed (True) or raw bytes as received (False)."""
        self._skills: list[CardSkill] = []
        """The card's skills (the picker's options)."""
        self._example_index = -1
        """Which example of the skill f4 put in the editor last."""
        self._shown: tuple[object, ...] = ()
        """What the panes were drawn from, so a redraw happens only when it changed."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="console-options"):
                yield Label("skill")
                yield LiteralSelect[str]([], id="skill", prompt="(no card yet)", compact=True)
                yield Label("part")
                yield LiteralSelect(
                    [("text", "text"), ("data", "data")],
                    id="part",
                    allow_blank=False,
                    value="text",
                    compact=True,
                )
                yield Label("mode")
                yield LiteralSelect(
                    [(m, m) for m in CONSOLE_MODES],
                    id="mode",
                    allow_blank=False,
                    value=InvocationMode.SYNC.value,
                    compact=True,
                )
                yield Button("Send (ctrl+j)", id="send", variant="primary", compact=True)
            yield ArgumentEditor(id="message")
            yield LiteralStatic(id="console-status")
            with Horizontal():
                with VerticalScroll(classes="pane", id="reply-pane"):
                    yield LiteralStatic(id="reply-body")
                with VerticalScroll(classes="pane", id="artifacts-pane"):
                    yield LiteralStatic(id="artifacts-body")

    def on_mount(self) -> None:
        self.query_one("#reply-pane").border_title = "Raw reply"
        self.query_one("#artifacts-pane").border_title = "Artifacts"
        editor = self.query_one(ArgumentEditor)
        editor.border_subtitle = "the message · f7 selects all · esc leaves the editor"
        editor.cursor_blink = self.app.animation_level != "none"

    # -- drawing -----------------------------------------------------------------------------
    def show_run(self, run: Run | None) -> None:
        self.query_one(ArgumentEditor).policy = self.policy
        self._fill_skills(run)
        state = self.sia.console_state
        shown = (state.reply, len(state.events), state.sending, self.pretty, self.policy)
        if shown == self._shown:
            return
        self._shown = shown
        self._show_status(run)
        self._show_reply(state.reply)
        self._show_artifacts(state.reply, state.events)

    def _fill_skills(self, run: Run | None) -> None:
        skills = list(run.card.skills) if run is not None and run.card is not None else []
        if [s.id for s in skills] == [s.id for s in self._skills]:
            return
        self._skills = skills
        picker: Select[str] = self.query_one("#skill", Select)
        literal = self.policy.literal
        picker.set_options(select_options((literal(f"{s.name} ({s.id})"), s.id) for s in skills))
        wanted = self.sia.console_state.skill_id
        chosen = wanted if any(s.id == wanted for s in skills) else None
        if chosen is None and skills:
            current = (run.skill_id or run.target.skill_id) if run is not None else None
            chosen = current if any(s.id == current for s in skills) else skills[0].id
        if chosen is not None:
            picker.value = chosen
            self.sia.console_state.skill_id = chosen
        editor = self.query_one(ArgumentEditor)
        if not editor.text.strip():
            self.action_next_example(quiet=True)

    def _show_status(self, run: Run | None) -> None:
        state = self.sia.console_state
        reply = state.reply
        iface = run.interface if run is not None else None
        via = (
            self.policy.literal(f"via [{iface.badge}] {iface.url}", style="$text-muted")
            if iface
            else None
        )
        if state.sending:
            line = Content.styled(f"⟳ sending… {len(state.events)} event(s) so far", "bold $accent")
        elif reply is None:
            line = Content.styled(
                "Type a message and press ctrl+j. Nothing is validated: this is plain A2A.",
                "$text-muted",
            )
        elif reply.error is not None:
            line = Content.styled("✘ ", "bold $error") + self.policy.literal(reply.error)
        elif reply.task is not None:
            line = Content.assemble(
                ("task ", "bold"),
                self.policy.literal(reply.task.id),
                "  state ",
                self.policy.literal(reply.task.state, style="bold $accent"),
                f"  {len(reply.artifacts)} artifact(s)",
            )
        else:
            line = Content.styled("The agent answered with a Message (no task).", "bold")
        self.query_one("#console-status", Static).update(
            Content("\n").join([line, via]) if via is not None else line
        )

    def _show_reply(self, reply: ConsoleReply | None) -> None:
        body = self.query_one("#reply-body", Static)
        if reply is None or not reply.exchanges:
            body.update(Content.styled("Nothing sent yet.", "$text-muted"))
            return
        body.update(
            Content("\n\n").join(
                exchange_content(
                    ex, self.policy, pretty=self.pretty, limit=DEFAULT_VIEW_LIMIT, reply_first=True
                )
                for ex in reply.exchanges
            )
        )

    def _show_artifacts(self, reply: ConsoleReply | None, events: list[StreamEvent]) -> None:
        pane = self.query_one("#artifacts-pane")
        body = self.query_one("#artifacts-body", Static)
        artifacts = list(reply.artifacts) if reply is not None else []
        if reply is None:  # while streaming: what has arrived so far
            artifacts = [e.artifact for e in events if e.artifact is not None]
        pane.border_title = Content(f"Artifacts ({len(artifacts)})")
        blocks = [_artifact_content(a, self.policy) for a in artifacts]
        status = reply.task.status_message if reply is not None and reply.task else None
        if status is not None:  # e.g. why the task was rejected or failed
            blocks.insert(
                0,
                Content.styled("Status message", "bold underline")
                + Content("\n")
                + _parts_content(status.parts, self.policy),
            )
        if reply is not None and reply.message is not None:
            blocks.append(
                Content.styled("Message from the agent", "bold underline")
                + Content("\n")
                + _parts_content(reply.message.parts, self.policy)
            )
        if not blocks:
            blocks = [Content.styled("No artifacts.", "$text-muted")]
        body.update(Content("\n\n").join(blocks))

    # -- actions -----------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "send":
            self.action_send()

    def on_select_changed(self, event: Select.Changed) -> None:
        state = self.sia.console_state
        if event.select.id == "skill" and isinstance(event.value, str):
            changed = event.value != state.skill_id
            state.skill_id = event.value
            if changed:
                self._example_index = -1

    def action_send(self) -> None:
        """Send the editor's text as one text or data part."""
        kind = PartKind(str(self.query_one("#part", Select).value))
        mode = str(self.query_one("#mode", Select).value)
        text = self.query_one(ArgumentEditor).text
        if kind is PartKind.DATA:
            try:
                loads(text, source="data part")
            except SiaError as exc:  # located, shown, nothing sent
                self.notify(
                    str(exc),
                    title="The data part is not JSON",
                    severity="error",
                )
                return
        self.sia.send_console(ConsoleRequest(kind, text, mode, self.sia.console_state.skill_id))

    def action_next_example(self, quiet: bool = False) -> None:
        """Put the skill's next example from the card in the editor (a JSON one as data)."""
        skill = next((s for s in self._skills if s.id == self.sia.console_state.skill_id), None)
        examples = skill.examples if skill is not None else ()
        if not examples:
            if not quiet:
                self.notify("The card lists no examples for this skill.", severity="warning")
            return
        self._example_index = (self._example_index + 1) % len(examples)
        example = examples[self._example_index]
        try:
            value = loads(example, source="example")
        except SiaError:  # most examples are prose prompts: a text part
            value = None
        part = self.query_one("#part", Select)
        part.value = "data" if isinstance(value, dict | list) else "text"
        # What the editor shows is what is sent: an escape in the card's example is made
        # visible (in JSON, escaped: the value stays the same).
        self.query_one(ArgumentEditor).load_text(
            terminal_json(value)
            if isinstance(value, dict | list)
            else printable(example, keep_newlines=True)
        )
        if not quiet:
            self.notify(f"Example {self._example_index + 1} of {len(examples)} from the card.")

    def action_toggle_pretty(self) -> None:
        self.pretty = not self.pretty
        self.refresh_run()
        self.say_bodies_shown(self.pretty)


def _artifact_content(artifact: Artifact, policy: DisplayPolicy) -> Content:
    """One artifact: its id and name, then each part."""
    head = Content.assemble(
        policy.literal(artifact.artifact_id, style="bold"),
        "  ",
        policy.literal(artifact.name or "", style="$secondary"),
    )
    return head + Content("\n") + _parts_content(artifact.parts, policy)


def _parts_content(parts: tuple[Part, ...], policy: DisplayPolicy) -> Content:
    """Text parts as text, data parts as JSON, other parts by kind (never fetched)."""
    blocks: list[Content] = []
    for part in parts:
        if part.kind == "text":
            blocks.append(policy.literal(part.value, multiline=True))
        elif part.kind == "data":
            blocks.append(json_content(pretty_json(part.value), policy, limit=DEFAULT_VIEW_LIMIT))
        else:
            blocks.append(
                Content.styled(f"({part.kind} part", "$text-muted")
                + policy.literal(f" {part.media_type or ''}".rstrip())
                + Content.styled(": not shown, never fetched)", "$text-muted")
            )
    return Content("\n").join(blocks) if blocks else Content.styled("(no parts)", "$text-muted")
