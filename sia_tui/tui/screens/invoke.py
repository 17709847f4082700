"""Mode 5: the argument editor, validated live against the input schema, and the invoke key."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Checkbox, Label, Select, Static

from sia_tui.core.engine import (
    LOOPBACK,
    CompiledSchema,
    Finding,
    Run,
    SiaError,
    TextValidation,
    compile_schema,
    display_pointer,
    terminal_json,
    validate_json_text,
)
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.host import BUSY_NOTICE
from sia_tui.tui.modes import mode_key, mode_keys
from sia_tui.tui.render.plain_a2a import CONSOLE_OFFER, lacks_extension
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.choices import SpaceCheckbox
from sia_tui.tui.widgets.literal import (
    LiteralSelect,
    LiteralStatic,
    select_options,
)
from sia_tui.tui.widgets.problems_table import ProblemsTable

#: Debounce between the last keystroke and validation (seconds).
VALIDATE_DELAY = 0.15
#: Debounce before an edit is written to the data dir.
SAVE_DELAY = 0.5
#: The push checkbox's tooltip: what turning it on does.
PUSH_TIP = (
    "Register a webhook on 127.0.0.1 with the invocation: each delivery shows on the "
    "Results screen beside the stream or poll. An agent that refuses loopback URLs says so "
    "there, and the run goes on."
)
#: Shown under the editor: how to get out of it (Tab indents inside it).
EDITOR_KEYS = f"f7 selects all · tab indents · esc leaves the editor (then tab, or {mode_keys()})"


class InvokeScreen(RunScreen):
    """Type the arguments with the schema checking every keystroke, then invoke."""

    HELP = (
        "Edit the arguments as JSON. Errors are listed below and underlined in the "
        f"text. Tab indents; Esc leaves the editor, then Tab moves on and {mode_keys()} "
        "switch screens. f2 loads a JSON file (a picker), f3 puts the skeleton back, f4 the "
        "example; ctrl+z undoes each. f7 selects all the text."
    )
    BINDINGS = [
        Binding("ctrl+j", "invoke", "Invoke", id="invoke.send", tooltip="Send the arguments"),
        Binding(
            "ctrl+t",
            "toggle_send_anyway",
            "Send anyway",
            id="invoke.send_anyway",
            tooltip="Send invalid arguments as a deliberate negative test",
        ),
        Binding(
            "f2",
            "load_file",
            "Load",
            id="invoke.load",
            tooltip="Load the arguments from a JSON file (a file picker; ctrl+z undoes it)",
        ),
        Binding(
            "f8",
            "pick_mode",
            "Mode",
            show=False,  # no room at 80 columns: the picker's label names the key
            id="invoke.mode",
            tooltip="Focus the response-mode picker and open it (Enter chooses)",
        ),
        # Not ctrl+k: that is TextArea's delete-to-end-of-line.
        Binding("f3", "reset", "Skeleton", id="invoke.skeleton", tooltip="The schema's skeleton"),
        Binding(
            "f4",
            "use_example",
            "Example",
            id="invoke.example",
            tooltip="The input schema's or the card skill's example",
        ),
        # Hidden from the footer (no room at 80 columns): a running task is watched on
        # Results, where x cancels it; F1 lists this key.
        Binding(
            "ctrl+x",
            "app.cancel_task",
            "Cancel",
            show=False,
            id="invoke.cancel",
            tooltip="Cancel the running task",
        ),
    ]
    DEFAULT_CSS = """
    InvokeScreen #options { height: 1; margin: 0 1; }
    InvokeScreen #options Label { padding: 0 1 0 0; }
    InvokeScreen #mode { width: 20; margin-right: 1; }
    InvokeScreen ArgumentEditor { height: 1fr; min-height: 5; }
    InvokeScreen #verdict { height: auto; max-height: 3; padding: 0 1; }
    InvokeScreen #errors { height: auto; max-height: 8; border: round $panel; }
    InvokeScreen #send-anyway.-armed { background: $warning 30%; text-style: bold; }
    """

    @dataclass
    class Validated(Message):
        """The editor text was validated (generation counts keystroke batches)."""

        generation: int
        result: TextValidation | None

    valid: reactive[bool] = reactive(False)
    """Whether the current text parses and validates against the input schema."""
    send_anyway: reactive[bool] = reactive(False)
    """The user chose to send invalid input: a deliberate negative test."""

    def __init__(self) -> None:
        super().__init__()
        self._compiled: CompiledSchema | None = None
        """The input schema, compiled once per document."""
        self._document: object = None
        """The document the editor was prepared for."""
        self._prepared = False
        """Whether the editor was prepared at least once (for no document too)."""
        self._schema: Any = None
        """Its input schema (``Run.input_schema``), for the skeleton."""
        self._example: Any = None
        """The example arguments (``Run.example_arguments``), when there is one."""
        self._edit_key: tuple[str, str] | None = None
        """(target, skill) the current text is persisted under."""
        self._generation = 0
        """Bumped on every change; stale validations are ignored."""
        self._validate_timer: Timer | None = None
        self._save_timer: Timer | None = None
        self.last_result: TextValidation | None = None
        """The latest validation, for the invoke action and tests."""
        self._checked = -1
        """The generation ``last_result`` checked (behind ``_generation``: a check runs)."""
        self._queued = False
        """ctrl+j was pressed while the text was being checked: invoke when it is."""
        self._modes: list[str] = []
        """The response modes the document declares (the picker's choices)."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="options"):
                yield Label("response mode (f8)")
                yield LiteralSelect(
                    [("sync", "sync")], id="mode", allow_blank=False, value="sync", compact=True
                )
                yield SpaceCheckbox("Send anyway (negative test)", id="send-anyway", compact=True)
                yield SpaceCheckbox("Push", id="push", compact=True, tooltip=PUSH_TIP)
            yield ArgumentEditor(id="editor")
            yield LiteralStatic(id="verdict")
            yield ProblemsTable(id="errors")

    def on_mount(self) -> None:
        table = self.query_one(ProblemsTable)
        table.border_title = "Problems"
        table.display = False
        editor = self.query_one(ArgumentEditor)
        editor.border_subtitle = EDITOR_KEYS
        # Reduced motion (TEXTUAL_ANIMATIONS=none) stops the cursor blinking too.
        editor.cursor_blink = self.app.animation_level != "none"

    def show_run(self, run: Run | None) -> None:
        editor = self.query_one(ArgumentEditor)
        # Marked secret values may have changed: the editor re-renders its masked lines.
        editor.policy = self.policy
        editor.notify_style_update()
        document = run.document if run else None
        if document is self._document and self._prepared:
            if self._schema is None:
                self._no_schema(run)  # steps may have started or ended since
            return
        self._prepared = True
        self._document = document
        schema = self._schema = run.input_schema if run is not None else None
        example = run.example_arguments if run is not None else None
        self._example = example
        if run is None or schema is None:
            self._compiled = None
            self._modes = []
            editor.read_only = True
            editor.load_text("")
            self._no_schema(run)
            return
        try:
            self._compiled = compile_schema(schema)
        except SiaError as exc:
            self._compiled = None
            self._verdict(f"The input schema cannot be compiled: {exc}", "$error")
            return
        # Only the modes the document declares (RULES SID4); none declared: the engine
        # chooses and step 8 says why it cannot.
        modes = self._modes = list(run.declared_modes)
        mode_select: Select[str] = self.query_one("#mode", Select)
        literal = self.policy.literal
        mode_select.set_options(
            select_options((literal(m), m) for m in modes) or [("(none declared)", "")]
        )
        mode_select.value = (
            run.target.mode if run.target.mode in modes else modes[0] if modes else ""
        )
        if self.sia.read_only:
            # A recorded session: show the arguments as sent; nothing is persisted or sent.
            self._edit_key = None
            editor.read_only = True
            editor.load_text("" if run.arguments is None else terminal_json(run.arguments))
            self._schedule_validation()
            return
        skill = run.skill_id or run.target.skill_id or ""
        self._edit_key = (run.target.location, skill)
        text = self.sia.dirs.load_edit(*self._edit_key)
        editor.read_only = False
        editor.focus()
        given, self.sia.initial_arguments = self.sia.initial_arguments, None
        if given is not None:  # `open --args FILE`: asked for, so it beats the last edit
            source, text = given
            self.notify(f"The editor starts with the arguments of {source}.", title="Arguments")
        elif text is None:
            # A valid example beats a skeleton that may not validate ("" vs minLength 1).
            text = terminal_json(example.value) if example is not None else self._skeleton(schema)
            if example is not None:
                self.notify(
                    f"The editor starts with {example.source}; f3 puts the skeleton instead.",
                    title="Example arguments",
                )
        editor.load_text(text)
        self._schedule_validation()

    def _no_schema(self, run: Run | None) -> None:
        """Why there is nothing to edit: steps running, not run yet, or no schema at all."""
        if lacks_extension(run):
            self._verdict(
                "No input schema: this agent has no schema-interface extension, so there is "
                f"nothing to validate arguments against. {CONSOLE_OFFER}",
                "$warning",
            )
        elif self.sia.engine_busy:
            self._verdict("Steps are running: the input schema arrives with step 6.", "$accent")
        else:
            self._verdict(
                f"Run steps 1-6 first (r on the Steps screen, {mode_key('steps')}) to load the "
                f"input schema. A skill without a schema interface: the A2A console "
                f"({mode_key('console')}).",
                "$text-muted",
            )

    @staticmethod
    def _skeleton(schema: Any) -> str:
        from sia_tui.core.engine import skeleton_for

        return terminal_json(skeleton_for(schema))

    # -- live validation -------------------------------------------------------------------
    def on_text_area_changed(self, _event: ArgumentEditor.Changed) -> None:
        self._generation += 1
        self._schedule_validation()
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY, self._save_edit)

    def _schedule_validation(self) -> None:
        if self._validate_timer is not None:
            self._validate_timer.stop()
        self._validate_timer = self.set_timer(VALIDATE_DELAY, self._start_validation)

    def _start_validation(self) -> None:
        if self._compiled is None:
            return
        self._validate(self._compiled, self.query_one(ArgumentEditor).text, self._generation)

    @work(thread=True, exclusive=True, group="validate")
    def _validate(self, compiled: CompiledSchema, text: str, generation: int) -> None:
        # Off the UI thread: a 100 KB document must not make typing stutter.
        self.post_message(self.Validated(generation, validate_json_text(compiled, text)))

    def on_invoke_screen_validated(self, message: Validated) -> None:
        if message.generation != self._generation or message.result is None:
            return  # the user typed again since: a newer validation is coming
        self._checked = message.generation
        self._show_validation(message.result)
        if self._queued:
            self._queued = False
            self.action_invoke()  # the ctrl+j pressed while this text was being checked

    def _show_validation(self, result: TextValidation) -> None:
        self.last_result = result
        editor = self.query_one(ArgumentEditor)
        table = self.query_one(ProblemsTable)
        literal_text = self.policy.literal_text
        if result.parse_error is not None:
            error = result.parse_error
            position = (error.line or 1, error.column or 1)
            editor.mark_errors([position])
            row = (f"{position[0]}:{position[1]}", error.pointer or "", "json", "", "")
            table.show_rows([(*row, literal_text(str(error)))])
            table.display = True
            self.valid = False
            self._verdict(
                f"✘ Not JSON at line {position[0]}, column {position[1]}: {error}", "$error"
            )
            return
        editor.mark_errors([(f.line, f.column or 1) for f in result.findings if f.line])
        table.show_rows([_finding_row(finding, self.policy) for finding in result.findings])
        if table.has_focus and not result.findings:
            # Hidden with the focus, the table would hand it back to the editor, where the
            # next keys (a screen's number) would be typed: the picker keeps it instead.
            self.query_one("#mode", Select).focus()
        table.display = bool(result.findings)
        self.valid = not result.findings
        if self.valid:
            self._verdict(
                "✔ Arguments valid against the input schema (RULES CP7). ctrl+j invokes.",
                "$success",
            )
        else:
            self._invalid_verdict()

    def _invalid_verdict(self) -> None:
        # The core's count: errors only (a closing note is no problem), "at least" a flood.
        count = self.last_result.problems if self.last_result is not None else "0"
        if self.send_anyway:
            self._verdict(
                f"✘ {count} problem(s); send anyway is ON: ctrl+j sends them as a "
                "deliberate negative test.",
                "$warning",
            )
        else:
            self._verdict(
                f"✘ {count} problem(s): fix them, or press ctrl+t (send anyway) "
                "for a deliberate negative test.",
                "$error",
            )

    def _verdict(self, text: str, style: str) -> None:
        self.query_one("#verdict", Static).update(Content.styled(text, f"bold {style}"))

    def _save_edit(self) -> None:
        if self._edit_key is not None:
            self.sia.dirs.save_edit(*self._edit_key, self.query_one(ArgumentEditor).text)

    # -- invoke ----------------------------------------------------------------------------
    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id == "send-anyway":
            self.send_anyway = event.value

    def watch_valid(self) -> None:
        self.refresh_bindings()

    def watch_send_anyway(self, armed: bool) -> None:
        self.query_one("#send-anyway", Checkbox).set_class(armed, "-armed")
        result = self.last_result
        if result is not None and result.parse_error is None and not self.valid:
            self._invalid_verdict()

    def action_toggle_send_anyway(self) -> None:
        box = self.query_one("#send-anyway", Checkbox)
        box.value = not box.value
        if box.value:
            self.notify(
                "Send anyway is ON: ctrl+j will now send the invalid arguments as a "
                "deliberate negative test.",
                title="Send anyway",
                severity="warning",
            )
        else:
            self.notify(
                "Send anyway is OFF: ctrl+j sends only arguments that validate.",
                title="Send anyway",
            )

    def action_pick_mode(self) -> None:
        """Focus the response-mode picker and open its list, from anywhere on the screen."""
        picker: Select[str] = self.query_one("#mode", Select)
        # The open list takes the focus; choosing (or Esc) leaves it on the picker.
        picker.action_show_overlay()

    def action_response_mode(self, mode: str) -> None:
        """Choose the response mode of the next invocation (the palette's commands)."""
        picker: Select[str] = self.query_one("#mode", Select)
        declared = self._modes
        if mode not in declared:
            why = (
                f"the document declares {', '.join(declared)}"
                if declared
                else f"no document yet: {self._why_no_schema()}"
            )
            self.notify(f"No {mode} mode: {why}.", title="Response mode", severity="warning")
            return
        picker.value = mode
        self.notify(f"Response mode: {mode} (the next ctrl+j uses it).", title="Response mode")

    def _refuse_edit(self) -> bool:
        """Tell the user and return True when the editor cannot be refilled now."""
        if self.sia.read_only:
            self.notify(
                "read-only session: the recorded arguments stay as sent.", severity="warning"
            )
            return True
        if self._schema is None:
            self.notify(self._why_no_schema(), severity="warning")
            return True
        return False

    def action_reset(self) -> None:
        """Replace the text by the input schema's skeleton (ctrl+z undoes it)."""
        if not self._refuse_edit():
            self.query_one(ArgumentEditor).replace_all(self._skeleton(self._schema))

    def action_use_example(self) -> None:
        """Replace the text by the example arguments (the input schema's, else the card's);
        ctrl+z undoes it."""
        if self._refuse_edit():
            return
        if self._example is None:
            self.notify(
                "No example: the input schema declares none and the card's skill entry lists "
                "no JSON example.",
                severity="warning",
            )
            return
        self.query_one(ArgumentEditor).replace_all(terminal_json(self._example.value))
        self.notify(f"Arguments from {self._example.source}.")

    def action_load_file(self) -> None:
        """Pick a JSON file and put its text in the editor (ctrl+z brings the text back)."""
        if self._refuse_edit():
            return
        from sia_tui.tui.screens.file_picker import FilePickerScreen

        picker = FilePickerScreen("Load the arguments from a JSON file")
        self.app.push_screen(picker, self._picked)

    def _picked(self, path: Path | None) -> None:
        if path is not None:
            self._load_file(path)

    @work(thread=True, exclusive=True, group="load-arguments")
    def _load_file(self, path: Path) -> None:
        from sia_tui.core.engine import read_json_text

        try:
            text = read_json_text(path)[1]
        except SiaError as exc:  # located: file:line:column
            self.app.call_from_thread(
                self.notify,
                f"{exc}. The editor is unchanged.",
                title="Not loaded",
                severity="error",
            )
            return
        self.app.call_from_thread(self._loaded, path, text)

    def _loaded(self, path: Path, text: str) -> None:
        self.query_one(ArgumentEditor).replace_all(text)
        self.notify(f"Arguments from {path} (ctrl+z brings the previous text back).")

    def _why_no_schema(self) -> str:
        """What ctrl+j, f3 or f4 are told while there is no input schema."""
        if self.sia.engine_busy:
            return BUSY_NOTICE
        if lacks_extension(self.sia.current_run):
            return f"This agent has no schema interface. {CONSOLE_OFFER}"
        return f"No input schema yet: run steps 1-6 first ({mode_key('steps')}, then r)."

    def action_invoke(self) -> None:
        if self._compiled is None:
            self.notify(self._why_no_schema(), title="Nothing sent", severity="warning")
            return
        result = self.last_result
        if result is None or self._checked != self._generation:
            # Never the verdict of an older text: the text on screen is sent, once checked.
            self._queued = True
            self.notify(
                "Queued: the arguments are being checked; they are sent as soon as they "
                "are (if valid).",
                title="Queued",
            )
            return
        if result.parse_error is not None:
            self.notify("The text is not JSON; nothing can be sent.", severity="error")
            return
        if not self.valid and not self.send_anyway:
            self.notify(
                f"Nothing sent: the arguments have {result.problems} problem(s) "
                "against the input schema. Fix them, or press ctrl+t (send anyway) "
                "for a deliberate negative test.",
                title="Not sent",
                severity="warning",
            )
            return
        # A skill that may act: the engine stops before step 8 and the app asks (RULES SID5).
        self._send(result.value)

    def _send(self, arguments: Any) -> None:
        engine = self.sia.engine
        if engine is None or self.sia.refuse_if_busy():
            return  # the mode must not change under a running step either
        mode = self.query_one("#mode", Select).value
        engine.set_mode(mode if isinstance(mode, str) and mode else None)
        engine.set_push(LOOPBACK if self.query_one("#push", Checkbox).value else None)
        self.sia.invoke(arguments, self.send_anyway and not self.valid)

    def action_toggle_push(self) -> None:
        """Turn the loopback push receiver on or off for the next invocation."""
        box = self.query_one("#push", Checkbox)
        box.value = not box.value
        self.notify(
            "Push is ON: the next invocation registers a webhook on 127.0.0.1; deliveries "
            "show on the Results screen."
            if box.value
            else "Push is OFF.",
            title="Push",
        )


def _finding_row(finding: Finding, policy: DisplayPolicy) -> tuple[Any, ...]:
    at = f"{finding.line}:{finding.column}" if finding.line else ""
    literal_text = policy.literal_text
    return (
        at,
        literal_text(display_pointer(finding.pointer)),
        literal_text(finding.keyword or ""),
        literal_text(finding.expected or ""),
        literal_text(finding.actual or ""),
        literal_text(finding.message),
    )
