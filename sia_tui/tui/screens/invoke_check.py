"""Mode 5's live check: the argument editor's text validated against the input schema as
the user types, its problems listed and underlined, and whether ctrl+j may send it now.

The base of ``InvokeScreen`` (``invoke_fill.py`` adds the f2/f3/f4 fills, ``invoke.py`` the
widgets, the document and the sending); it reads the widgets ``InvokeScreen`` composes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import work
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Checkbox, Select, Static
from textual.worker import Worker

from sia_tui.core.findings import Finding
from sia_tui.core.jsonkit import display_pointer
from sia_tui.core.run import Run
from sia_tui.core.schemas import CompiledSchema, TextValidation, validate_json_text
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.host import BUSY_NOTICE
from sia_tui.tui.modes import mode_key
from sia_tui.tui.render.plain_a2a import CONSOLE_OFFER, lacks_extension
from sia_tui.tui.screens.base import RunScreen
from sia_tui.tui.widgets.argument_editor import ArgumentEditor
from sia_tui.tui.widgets.problems_table import ProblemsTable

#: Debounce between the last keystroke and validation (seconds).
VALIDATE_DELAY = 0.15
#: Debounce before an edit is written to the data dir.
SAVE_DELAY = 0.5


class InvokeChecks(RunScreen):
    """The editor's text checked on every keystroke (off the UI thread), and its verdict."""

    @dataclass
    class Validated(Message):
        """The editor text was validated (generation counts keystroke batches)."""

        generation: int
        result: TextValidation | None
        text: str
        """The text checked."""

    valid: reactive[bool] = reactive(False)
    """Whether the current text parses and validates against the input schema."""
    send_anyway: reactive[bool] = reactive(False)
    """The user chose to send invalid input: a deliberate negative test."""

    def __init__(self) -> None:
        super().__init__()
        self._compiled: CompiledSchema | None = None
        """The input schema, compiled once per document."""
        self._edit_key: tuple[str, str] | None = None
        """(target, skill) the current text is persisted under."""
        self._generation = 0
        """Bumped on every change; stale validations are ignored."""
        self._validate_timer: Timer | None = None
        self._debounced = True
        """The debounce after the last keystroke has passed: a check may be shown."""
        self._checking: Worker[None] | None = None
        """The check running in a worker (one at a time: the newest text is checked next)."""
        self._ready: InvokeChecks.Validated | None = None
        """A check of the current text, done before the debounce passed."""
        self._save_timer: Timer | None = None
        self.last_result: TextValidation | None = None
        """The latest validation, for the invoke action and tests."""
        self._checked = -1
        """The generation ``last_result`` checked (behind ``_generation``: a check runs)."""
        self._checked_text: str | None = None
        """The text ``last_result`` checked."""
        self._queued = False
        """ctrl+j was pressed while the text was being checked: invoke when it is."""

    # -- live validation -------------------------------------------------------------------
    def on_text_area_changed(self, _event: ArgumentEditor.Changed) -> None:
        self._schedule_validation()
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY, self._save_edit)

    def _schedule_validation(self) -> None:
        # The check starts at the keystroke and is shown once the debounce has passed: in
        # 1 MB the check alone takes some 50 ms, which then runs during the debounce
        # instead of after it. Checks never pile up: one runs at a time, and the text on
        # screen when it ends is checked next (``on_invoke_checks_validated``).
        self._generation += 1  # a check of an earlier text or schema is never shown
        if self._validate_timer is not None:
            self._validate_timer.stop()
        self._debounced = False
        self._ready = None
        self._validate_timer = self.set_timer(VALIDATE_DELAY, self._debounce_passed)
        self._start_validation()

    def _start_validation(self) -> None:
        running = self._checking is not None and not self._checking.is_finished
        if self._compiled is None or running:
            return
        self._checking = self._validate(
            self._compiled, self.query_one(ArgumentEditor).text, self._generation
        )

    @work(thread=True, group="validate")
    def _validate(self, compiled: CompiledSchema, text: str, generation: int) -> None:
        # Off the UI thread: a 100 KB document must not make typing stutter.
        result: TextValidation | None = None
        try:
            result = validate_json_text(compiled, text)
        finally:  # always answered, or no later text would be checked
            self.post_message(self.Validated(generation, result, text))

    def _debounce_passed(self) -> None:
        self._debounced = True
        ready, self._ready = self._ready, None
        if ready is not None:
            self._show_checked(ready)

    def _is_on_screen(self, message: Validated) -> bool:
        """Whether ``message`` checked the text on screen now: a text loaded or typed
        since may not have announced itself yet (its change is a message still queued)."""
        text = self.query_one(ArgumentEditor).text
        return message.generation == self._generation and (
            message.text is text or message.text == text
        )

    def on_invoke_checks_validated(self, message: Validated) -> None:
        self._checking = None
        if not self._is_on_screen(message):
            self._start_validation()  # the user typed since: check the text on screen
            return
        if message.result is None:
            return
        if self._debounced:
            self._show_checked(message)
        else:
            self._ready = message  # shown when the debounce passes

    def _show_checked(self, message: Validated) -> None:
        assert message.result is not None
        if not self._is_on_screen(message):
            self._start_validation()
            return
        self._checked = message.generation
        self._checked_text = message.text
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
            # The message alone: its own "arguments:2:18:" would say the position twice.
            table.show_rows([(*row, literal_text(error.message))])
            self.valid = False
            at = f" (at {error.pointer})" if error.pointer else ""
            self._verdict(
                f"✘ Not JSON at line {position[0]}, column {position[1]}: {error.message}{at}",
                "$error",
            )
            return
        editor.mark_errors([(f.line, f.column or 1) for f in result.findings if f.line])
        if table.has_focus and not result.findings:
            # Emptied, the table takes no focus, and would hand it back to the editor, where
            # the next keys (a screen's number) would be typed: the picker keeps it instead.
            self.query_one("#mode", Select).focus()
        # The table keeps its place and height when it empties (``InvokeScreen``): the
        # editor is not laid out and drawn again on each check.
        table.show_rows([_finding_row(finding, self.policy) for finding in result.findings])
        self.valid = not result.findings
        if self.valid:
            # Valid arguments are never a negative test: the toggle turns itself off, so a
            # later typo is not sent by a ctrl+t the user pressed for another text.
            self.disarm_negative_test()
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
                f"✘ {count} problem(s); negative test armed: ctrl+j sends them as a "
                "deliberate negative test (ctrl+t disarms it).",
                "$warning",
            )
        else:
            self._verdict(
                f"✘ {count} problem(s): fix them, or press ctrl+t to arm a deliberate "
                "negative test (ctrl+j then sends them).",
                "$error",
            )

    def _verdict(self, text: str, style: str) -> None:
        self.query_one("#verdict", Static).update(Content.styled(text, f"bold {style}"))

    def _save_edit(self) -> None:
        if self._edit_key is not None:
            self.sia.dirs.save_edit(*self._edit_key, self.query_one(ArgumentEditor).text)

    def watch_valid(self) -> None:
        self.refresh_bindings()

    def disarm_negative_test(self) -> None:
        """Turn the negative test off (its checkbox too), when it is on."""
        if self.send_anyway:
            self.query_one("#send-anyway", Checkbox).value = False
            self.send_anyway = False

    def watch_send_anyway(self, armed: bool) -> None:
        self.query_one("#send-anyway", Checkbox).set_class(armed, "-armed")
        result = self.last_result
        if result is not None and result.parse_error is None and not self.valid:
            self._invalid_verdict()

    # -- no input schema -------------------------------------------------------------------
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

    def _why_no_schema(self) -> str:
        """What ctrl+j, f3 or f4 are told while there is no input schema."""
        if self.sia.engine_busy:
            return BUSY_NOTICE
        if lacks_extension(self.sia.current_run):
            return f"This agent has no schema interface. {CONSOLE_OFFER}"
        return f"No input schema yet: run steps 1-6 first ({mode_key('steps')}, then r)."

    # -- ctrl+j ----------------------------------------------------------------------------
    def _sendable(self) -> TextValidation | None:
        """The check of the text on screen when ctrl+j may send it, else None (the user is
        told why; a text still being checked is queued and sent once it is, if valid)."""
        result = self.last_result
        text = self.query_one(ArgumentEditor).text
        if result is None or self._checked != self._generation or self._checked_text != text:
            # Never the verdict of an older text: the text on screen is sent, once checked.
            self._queued = True
            self._start_validation()  # unless one runs: its end checks the text on screen
            self.notify(
                "Queued: the arguments are being checked; they are sent as soon as they "
                "are (if valid).",
                title="Queued",
            )
            return None
        if result.parse_error is not None:
            self.notify("The text is not JSON; nothing can be sent.", severity="error")
            return None
        if not self.valid and not self.send_anyway:
            self.notify(
                f"Nothing sent: the arguments have {result.problems} problem(s) "
                "against the input schema. Fix them, or press ctrl+t to arm a "
                "deliberate negative test (ctrl+j then sends them).",
                title="Not sent",
                severity="warning",
            )
            return None
        return result

    def action_invoke(self) -> None:
        """ctrl+j: send the checked arguments (``InvokeScreen`` sends them)."""
        raise NotImplementedError


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
