"""Mode 5: the argument editor, validated live against the input schema, and the invoke key.

The screen is three layers: ``invoke_check.py`` (the live check, its verdict and when
ctrl+j may send), ``invoke_fill.py`` (f2, f3 and f4 refill the editor) and this module (the
widgets, the document, the options and the sending).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Label, Select

from sia_tui.core.errors import SiaError
from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.output import terminal_json
from sia_tui.core.run import LOOPBACK, ExampleArguments, Run
from sia_tui.core.schemas import compile_schema
from sia_tui.tui.modes import mode_keys
from sia_tui.tui.screens.invoke_fill import InvokeFills
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.choices import SpaceCheckbox
from sia_tui.tui.widgets.literal import (
    LiteralSelect,
    LiteralStatic,
    select_options,
)
from sia_tui.tui.widgets.problems_table import ProblemsTable

SAVE_DELAY = 0.5
#: Terminal rows from which the Problems table is given its full height.
_TALL = 30
#: The push checkbox's tooltip: what turning it on does.
PUSH_TIP = (
    "Register a webhook on 127.0.0.1 with the invocation: each delivery shows on the "
    "Results screen beside the stream or poll. An agent that refuses loopback URLs says so "
    "there, and the run goes on."
)
#: Shown under the editor: how to get out of it (Tab indents inside it).
EDITOR_KEYS = f"f7 selects all · tab indents · esc leaves the editor (then tab, or {mode_keys()})"


class InvokeScreen(InvokeFills):
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
            "Negative test",
            id="invoke.send_anyway",
            tooltip="Arm (or disarm) a deliberate negative test: ctrl+j then sends the "
            "invalid arguments",
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
    InvokeScreen #verdict { height: auto; min-height: 2; max-height: 3; padding: 0 1; }
    InvokeScreen #errors { height: 8; border: round $panel; }
    InvokeScreen.-short #errors { height: 6; }
    InvokeScreen #send-anyway.-armed { background: $warning 30%; text-style: bold; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._document: object = None
        """The document the editor was prepared for."""
        self._prepared = False
        """Whether the editor was prepared at least once (for no document too)."""
        self._modes: list[str] = []
        """The response modes the document declares (the picker's choices)."""

    def compose_body(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="options"):
                yield Label("response mode (f8)")
                yield LiteralSelect(
                    [(InvocationMode.SYNC.value, InvocationMode.SYNC.value)],
                    id="mode",
                    allow_blank=False,
                    value=InvocationMode.SYNC.value,
                    compact=True,
                )
                yield SpaceCheckbox("Negative test (ctrl+t)", id="send-anyway", compact=True)
                yield SpaceCheckbox("Push", id="push", compact=True, tooltip=PUSH_TIP)
            yield ArgumentEditor(id="editor")
            yield LiteralStatic(id="verdict")
            yield ProblemsTable(id="errors")

    def on_resize(self, event: events.Resize) -> None:
        # The Problems table keeps one height while there is a schema, empty or not (the
        # editor is not laid out again as problems come and go): less of it at 24 rows.
        self.set_class(event.size.height < _TALL, "-short")

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
        schema = self._schema = run.answers.input_schema if run is not None else None
        example = run.answers.example_arguments if run is not None else None
        self._example = example
        if run is None or schema is None:
            self._compiled = None
            self.query_one(ProblemsTable).display = False
            self._modes = []
            editor.read_only = True
            editor.load_text("")
            self._no_schema(run)
            return
        try:
            self._compiled = compile_schema(schema)
        except SiaError as exc:
            self._compiled = None
            self.query_one(ProblemsTable).display = False
            self._verdict(f"The input schema cannot be compiled: {exc}", "$error")
            return
        self.query_one(ProblemsTable).display = True
        # Only the modes the document declares (RULES SID4); none declared: the engine
        # chooses and step 8 says why it cannot.
        modes = self._modes = list(run.answers.declared_modes)
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
        editor.read_only = False
        editor.focus()
        given, self.sia.initial_arguments = self.sia.initial_arguments, None
        if given is not None:  # `open --args FILE`: asked for, so it beats the last edit
            source, text = given
            self.notify(f"The editor starts with the arguments of {source}.", title="Arguments")
            editor.load_text(text)
        elif not self._restore_draft(editor):
            # A valid example beats a skeleton that may not validate ("" vs minLength 1).
            text = terminal_json(example.value) if example is not None else self._skeleton(schema)
            if example is not None:
                self._tell_example(example)
            editor.load_text(text)
        self._schedule_validation()

    def _tell_example(self, example: ExampleArguments) -> None:
        """Say which example the editor starts with, and loudly when one fails the schema."""
        if example.problem is not None:
            self.notify(
                f"The editor starts with {example.source}, which fails the input schema "
                f"{example.problem}. f3 puts the skeleton instead.",
                title="Invalid example",
                severity="warning",
            )
        elif example.passed_over:
            self.notify(
                f"The editor starts with {example.source}, the first valid example (the input "
                "schema's own examples should validate): "
                + "; ".join(example.passed_over)
                + ". f3 puts the skeleton instead.",
                title="Example arguments",
                severity="warning",
            )
        else:
            self.notify(
                f"The editor starts with {example.source}; f3 puts the skeleton instead.",
                title="Example arguments",
            )

    # -- invoke ----------------------------------------------------------------------------
    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id == "send-anyway":
            if event.value and self.valid:  # clicked on valid arguments
                event.checkbox.value = False
                self._nothing_to_negate()
                return
            self.send_anyway = event.value

    def _nothing_to_negate(self) -> None:
        # Armed on valid arguments, it would stay armed for the next typo (it turns off
        # only when a check finds them valid again): never armed on valid ones.
        self.notify(
            "Nothing to test: these arguments are valid. A negative test sends arguments "
            "the input schema refuses: make them invalid, then press ctrl+t.",
            title="Negative test",
            severity="warning",
        )

    def action_toggle_send_anyway(self) -> None:
        box = self.query_one("#send-anyway", Checkbox)
        if not box.value and self.valid:
            self._nothing_to_negate()
            return
        box.value = not box.value
        if box.value:
            self.notify(
                "Negative test armed: ctrl+j sends the invalid arguments as a deliberate "
                "negative test. It turns off once the arguments are valid.",
                title="Negative test",
                severity="warning",
            )
        else:
            self.notify(
                "Negative test off: ctrl+j sends only arguments that validate.",
                title="Negative test",
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
            # Without a document, the reason is a sentence of its own (it ends in a period).
            why = (
                f"No {mode} mode: the document declares {', '.join(declared)}."
                if declared
                else f"No {mode} mode yet. {self._why_no_schema()}"
            )
            self.notify(why, title="Response mode", severity="warning")
            return
        picker.value = mode
        self.notify(f"Response mode: {mode} (the next ctrl+j uses it).", title="Response mode")

    def action_invoke(self) -> None:
        if self._compiled is None:
            self.notify(self._why_no_schema(), title="Nothing sent", severity="warning")
            return
        result = self._sendable()
        if result is not None:
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
