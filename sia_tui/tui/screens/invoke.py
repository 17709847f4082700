"""Mode 5: the argument editor, validated live against the input schema, and the invoke key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Checkbox, DataTable, Select, Static

from sia_tui.core.engine import (
    CompiledSchema,
    Finding,
    Run,
    SiaError,
    TextValidation,
    compile_schema,
    display_pointer,
    validate_json_text,
)
from sia_tui.tui.display import literal_text
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.screens.confirm import ConfirmScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor

#: Debounce between the last keystroke and validation (seconds).
VALIDATE_DELAY = 0.15
#: Debounce before an edit is written to the data dir.
SAVE_DELAY = 0.5


class InvokeScreen(RunScreen):
    """Type the arguments with the schema checking every keystroke, then invoke."""

    HELP = (
        "Edit the arguments as JSON. Errors are listed below and underlined in the "
        "text. Esc leaves the editor; then 1-9 switch screens. f3 puts the skeleton back."
    )
    BINDINGS = [
        Binding("ctrl+j", "invoke", "Invoke", id="invoke.send"),
        Binding("ctrl+t", "toggle_send_anyway", "Send anyway", id="invoke.send_anyway"),
        # Not ctrl+k: that is TextArea's delete-to-end-of-line.
        Binding("f3", "reset", "Skeleton", id="invoke.skeleton"),
        Binding("ctrl+x", "app.cancel_task", "Cancel task", id="invoke.cancel"),
    ]
    DEFAULT_CSS = """
    InvokeScreen #options { height: 3; }
    InvokeScreen #mode { width: 24; }
    InvokeScreen ArgumentEditor { height: 1fr; }
    InvokeScreen #verdict { height: 1; padding: 0 1; }
    InvokeScreen #errors { height: 10; border: round $panel; }
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
        self._schema: Any = None
        """Its input schema (``Run.input_schema``), for the skeleton."""
        self._edit_key: tuple[str, str] | None = None
        """(target, skill) the current text is persisted under."""
        self._generation = 0
        """Bumped on every change; stale validations are ignored."""
        self._validate_timer: Timer | None = None
        self._save_timer: Timer | None = None
        self.last_result: TextValidation | None = None
        """The latest validation, for the invoke action and tests."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="options"):
                yield Select([("sync", "sync")], id="mode", allow_blank=False, value="sync")
                yield Checkbox("Send anyway (deliberate negative test)", id="send-anyway")
            yield ArgumentEditor(id="editor")
            yield Static(id="verdict")
            yield DataTable(id="errors", cursor_type="row")

    def on_mount(self) -> None:
        table = self.query_one("#errors", DataTable)
        # Explicit widths: auto-sized columns are measured on idle, and a screen drawn before
        # that shows the rows cut to the header's width.
        for label, width in (
            ("at", 6),
            ("instance path", 28),
            ("keyword", 12),
            ("expected", 14),
            ("actual", 14),
            ("message", 60),
        ):
            table.add_column(label, width=width)
        table.border_title = "Problems"
        if self.sia.snapshot_mode:
            # A blinking cursor is a clock: screenshots would differ from run to run.
            self.query_one(ArgumentEditor).cursor_blink = False

    def show_run(self, run: Run | None) -> None:
        # Marked secret values may have changed: the editor re-renders its masked lines.
        self.query_one(ArgumentEditor).notify_style_update()
        document = run.document if run else None
        if document is self._document:
            return
        self._document = document
        editor = self.query_one(ArgumentEditor)
        schema = self._schema = run.input_schema if run is not None else None
        if run is None or schema is None:
            self._compiled = None
            editor.read_only = True
            editor.load_text("")
            self._verdict(
                "Run steps 1-6 first (Steps screen: 2, then r) to load the input schema.",
                "$text-muted",
            )
            return
        try:
            self._compiled = compile_schema(schema)
        except SiaError as exc:
            self._compiled = None
            self._verdict(f"The input schema cannot be compiled: {exc}", "$error")
            return
        # Only the modes the document declares (RULES SID4); none declared: the engine
        # chooses and step 8 says why it cannot.
        modes = run.declared_modes
        mode_select: Select[str] = self.query_one("#mode", Select)
        mode_select.set_options([(m, m) for m in modes] or [("(none declared)", "")])
        mode_select.value = (
            run.target.mode if run.target.mode in modes else modes[0] if modes else ""
        )
        if self.sia.read_only:
            # A recorded session: show the arguments as sent; nothing is persisted or sent.
            from sia_tui.tui.highlight import pretty_json

            self._edit_key = None
            editor.read_only = True
            editor.load_text("" if run.arguments is None else pretty_json(run.arguments))
            self._schedule_validation()
            return
        skill = run.skill_id or run.target.skill_id or ""
        self._edit_key = (run.target.location, skill)
        text = self.sia.dirs.load_edit(*self._edit_key)
        editor.read_only = False
        editor.focus()
        editor.load_text(text if text is not None else self._skeleton(schema))
        self._schedule_validation()

    @staticmethod
    def _skeleton(schema: Any) -> str:
        from sia_tui.core.engine import skeleton_for
        from sia_tui.tui.highlight import pretty_json

        return pretty_json(skeleton_for(schema))

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
        self.last_result = result = message.result
        editor = self.query_one(ArgumentEditor)
        table = self.query_one("#errors", DataTable)
        table.clear()
        if result.parse_error is not None:
            error = result.parse_error
            position = (error.line or 1, error.column or 1)
            editor.mark_errors([position])
            table.add_row(
                f"{position[0]}:{position[1]}",
                error.pointer or "",
                "json",
                "",
                "",
                literal_text(str(error)),
            )
            self.valid = False
            self._verdict(
                f"✘ Not JSON at line {position[0]}, column {position[1]}: {error}", "$error"
            )
            return
        editor.mark_errors([(f.line, f.column or 1) for f in result.findings if f.line])
        for finding in result.findings:
            table.add_row(*_finding_row(finding))
        self.valid = not result.findings
        if self.valid:
            self._verdict(
                "✔ Arguments valid against the input schema (RULES CP7). ctrl+j invokes.",
                "$success",
            )
        else:
            self._invalid_verdict()

    def _invalid_verdict(self) -> None:
        count = len(self.last_result.findings) if self.last_result is not None else 0
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

    def action_reset(self) -> None:
        """Replace the text by the input schema's skeleton."""
        schema = self._schema
        if self.sia.read_only:
            self.notify(
                "read-only session: the recorded arguments stay as sent.", severity="warning"
            )
        elif schema is None:
            self.notify("No input schema yet: run steps 1-6 first (2, then r).", severity="warning")
        else:
            self.query_one(ArgumentEditor).load_text(self._skeleton(schema))

    def action_invoke(self) -> None:
        result = self.last_result
        if result is None or result.parse_error is not None:
            self.notify("The text is not JSON; nothing can be sent.", severity="error")
            return
        if not self.valid and not self.send_anyway:
            self.notify(
                f"Nothing sent: the arguments have {len(result.findings)} problem(s) "
                "against the input schema. Fix them, or press ctrl+t (send anyway) "
                "for a deliberate negative test.",
                title="Not sent",
                severity="warning",
            )
            return
        authority = (
            (self._document or {}).get("authority", {}) if isinstance(self._document, dict) else {}
        )
        if isinstance(authority, dict) and authority.get("default_mode") == "execute":
            question = Content.assemble(
                ("This skill's posture is ", ""),
                ("execute", "bold $warning"),
                (
                    ": it may change things. The document describes that; it does not "
                    "authorize it (RULES SID5). Send the request?",
                    "",
                ),
            )
            self.app.push_screen(ConfirmScreen(question), self._confirmed)
            return
        self._send(result.value)

    def _confirmed(self, yes: bool | None) -> None:
        if yes and self.last_result is not None:
            self._send(self.last_result.value)

    def _send(self, arguments: Any) -> None:
        engine = self.sia.engine
        if engine is None or self.sia.refuse_if_busy():
            return  # the mode must not change under a running step either
        mode = self.query_one("#mode", Select).value
        engine.set_mode(mode if isinstance(mode, str) and mode else None)
        self.sia.invoke(arguments, self.send_anyway and not self.valid)


def _finding_row(finding: Finding) -> tuple[Any, ...]:
    at = f"{finding.line}:{finding.column}" if finding.line else ""
    return (
        at,
        literal_text(display_pointer(finding.pointer)),
        literal_text(finding.keyword or ""),
        literal_text(finding.expected or ""),
        literal_text(finding.actual or ""),
        literal_text(finding.message),
    )
