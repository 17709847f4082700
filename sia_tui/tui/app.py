"""The Textual app: modes (from ``modes.MODE_SPECS``), bindings, theme, and the services it owns."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.worker import WorkerCancelled, WorkerFailed

from sia_tui.core.a2a import ClientOptions
from sia_tui.core.needs import install_wording
from sia_tui.core.output import clipboard_text
from sia_tui.core.redaction import install_log_redaction
from sia_tui.tui import palette
from sia_tui.tui.connection import Connection
from sia_tui.tui.display import DisplayPolicy, Scrubber, secret_forms
from sia_tui.tui.engine_actions import ENGINE_GROUP, EngineActions
from sia_tui.tui.engine_port import build_procedure
from sia_tui.tui.exports import Exports
from sia_tui.tui.host import ConsoleState
from sia_tui.tui.invocation_view import InvocationView
from sia_tui.tui.messages import EngineFailed, RunUpdated
from sia_tui.tui.modes import MODE_SPECS, ModeSpec, mode_bindings, mode_factories
from sia_tui.tui.needs import TUI_WORDS
from sia_tui.tui.readonly import ReadOnlyEngine
from sia_tui.tui.safe_output import SafeOutputApp
from sia_tui.tui.session_actions import SessionActions
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.style_inputs import StyleInputs, restyle_needed, style_inputs
from sia_tui.tui.themes import (
    APP_VARIABLE_DEFAULTS,
    DEFAULT_THEME,
    ThemeFileError,
    choose_first_theme,
    load_themes_reporting,
)

if TYPE_CHECKING:
    from pathlib import Path

    from textual.worker import Worker

    from sia_tui.core.a2a import Task
    from sia_tui.core.engine import ConsoleRequest
    from sia_tui.core.probe import ProbeReport
    from sia_tui.core.run import Invocation, Reply, Run, Target
    from sia_tui.core.session import LoadedSession
    from sia_tui.tui.engine_port import Engine, EngineFactory


class SiaApp(SafeOutputApp):
    """sia-tui: debug a schema-governed A2A skill step by step.

    The app holds what every screen shares (the engine, the session on screen, the options,
    the display policy) and owns one service per concern: ``view`` (which invocation is on
    screen), ``sessions`` (save, HAR, autosave, recorded runs, secret values), ``exports``
    (clipboard, screenshots) and ``engine_actions`` (n / r / R / invoke / cancel, the
    console). Its ``action_*`` methods and the ``SiaHost`` members are one line each: Textual
    resolves a binding's action on the app, and the screens ask the app, not a service.
    """

    TITLE = "sia-tui"
    #: Pane titles name what a pane shows: readable, not the dim colour of a quiet border.
    #: Toasts sit at the top right, one line of padding less: at the bottom they covered
    #: the message column of the Invoke screen's Problems table, which they talk about.
    CSS = """
    * { border-title-color: $foreground 85%; }
    ToastRack { dock: top; align: right top; margin-bottom: 0; margin-top: 2; }
    Toast { padding: 0 1; }
    """
    #: The screens (``modes.py``); the tab bar reads the app's own list.
    MODE_SPECS: ClassVar[tuple[ModeSpec, ...]] = MODE_SPECS
    MODES = mode_factories(MODE_SPECS)
    DEFAULT_MODE = "overview"
    BINDINGS: ClassVar[list[BindingType]] = [
        *mode_bindings(MODE_SPECS),
        Binding("ctrl+s", "save_session", "Save", show=False, id="session.save"),
        Binding("f1", "help", "Help", id="app.help", tooltip="The keys of the focused pane"),
        Binding(
            "escape",
            "back_to_live",
            "Back to live run",
            show=False,  # the header's read-only badge says it (no room in the footer)
            id="session.back",
            tooltip="Leave the recorded run and show the live one again, unchanged",
        ),
        Binding(
            "f9",
            "export_har",
            "Export HAR",
            show=False,
            id="session.har",
            tooltip="Save every exchange as HAR 1.2 (redacted); asks where, as ctrl+s does",
        ),
        Binding(
            "f12",
            "screenshot_to_file",
            "Screenshot",
            show=False,
            id="app.screenshot",
            tooltip="Save an SVG of the screen (secrets stay masked)",
        ),
        Binding(
            "left_square_bracket",
            "show_invocation(-1)",
            "Earlier invocation",
            key_display="[",
            show=False,
            id="invocation.previous",
            tooltip="Show the run's previous invocation (each has its own verdict)",
        ),
        Binding(
            "right_square_bracket",
            "show_invocation(1)",
            "Later invocation",
            key_display="]",
            show=False,
            id="invocation.next",
            tooltip="Show the run's next invocation, up to the latest",
        ),
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit"),
    ]

    def __init__(
        self,
        target: Target | None = None,
        options: ClientOptions | None = None,
        *,
        engine_factory: EngineFactory = build_procedure,
        dirs: UserDirs | None = None,
        session: LoadedSession | None = None,
        secret_values: tuple[str, ...] = (),
        secret_headers: tuple[str, ...] = (),
        remember_targets: bool = True,
        scrub: Scrubber | None = None,
        arguments: tuple[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.engine_factory = engine_factory
        """Builds an engine for a target (the real Procedure, or a fake in tests)."""
        self.options = options or ClientOptions()
        """Client settings from the command line; the connect screen may add to them."""
        self.initial_target = target
        """The target given on the command line; None opens the connect screen."""
        self.dirs = dirs or UserDirs.default()
        """Where settings, recent targets and argument edits live."""
        self.initial_arguments = arguments
        """(file, text) of ``--args FILE``: the argument editor starts with it, once."""
        self.remember_targets = remember_targets
        """Add targets to the recent list (``demo`` does not: its port dies with it)."""
        self.engine: Engine | None = None
        """The engine for the current target."""
        self.console_state = ConsoleState()
        self.session = session
        self.secret_values = list(secret_values)
        self.secret_headers = list(secret_headers)
        self.display_policy = DisplayPolicy(scrub=scrub)
        """How every screen shows text: secrets masked; ``scrub`` only from test harnesses."""
        self.view = InvocationView(self)
        self.sessions = SessionActions(self)
        self.exports = Exports(self)
        self.engine_actions = EngineActions(self, self.sessions, self.view)
        self.connection = Connection(self, self.sessions, self.engine_actions)
        if session is not None:
            # A recorded session: every screen renders from its bytes, no client is built.
            self.engine = ReadOnlyEngine(session)
        self._collecting = False
        """Garbage collection was on when start-up paused it (``on_load``)."""
        self._issued_masked = 0
        """How many issued secrets (``Run.issued``) the display policy masks."""
        self._redraw_pending = False
        """A RunUpdated waits to be handled: a flood of updates is one redraw."""
        self.redraws_requested = 0
        """How many times a change to what the screens show was announced (``request_redraw``)."""
        self._styled_with: StyleInputs | None = None
        """What the last restyle's rules were made of (``refresh_css``)."""
        self.update_display_policy()
        self._theme_problems = self._set_theme()

    # -- themes ------------------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(APP_VARIABLE_DEFAULTS)

    def _set_theme(self) -> list[ThemeFileError]:
        """Register the themes and choose one before the first frame (choosing it later
        styles every widget twice); returns the theme files that were skipped."""
        themes, problems = load_themes_reporting()
        for theme in themes:
            self.register_theme(theme)
        remembered = self.dirs.load_settings().get("theme")
        # Set explicitly: TEXTUAL_THEME must not leak into what the user (or a snapshot) sees.
        choose_first_theme(
            self, remembered if remembered in self.available_themes else DEFAULT_THEME
        )
        return problems

    def on_load(self) -> None:
        # No garbage collection until the first frame (``on_ready``): building the first
        # screen makes objects the app keeps, not garbage, and collections while it is
        # built cost some 10 ms before the card is on screen.
        self._collecting = gc.isenabled()
        gc.disable()
        # Nothing is styled yet. Give the rules the chosen theme's colours now and style the
        # app itself before its first screen (whose widgets' colours follow the app's): the
        # restyle Textual asks for with that screen (a new mode) then changes nothing and is
        # skipped (``refresh_css``), so the CSS is parsed once (some 10 ms less).
        inputs = style_inputs(self)
        self.stylesheet.set_variables(dict(inputs[0]))
        self.stylesheet.apply(self)
        self._styled_with = inputs
        # Before any client exists: each one adds its credentials to this filter.
        install_log_redaction()
        # The core words what the user can give as this app's keys and fields, in this
        # task and every worker it starts.
        install_wording(TUI_WORDS)
        # Step 1 starts before the first screen is built: the card is fetched while Textual
        # starts, and on a quick agent the first frame already shows it.
        if self.session is None and self.initial_target is not None:
            self.connect(self.initial_target)

    def on_ready(self) -> None:
        self._resume_collection()  # the first frame is on screen

    def refresh_css(self, animate: bool = True) -> None:
        """Restyle the app, unless no widget's styles can change (``style_inputs.py``: a
        tab's first visit added rules only its own new widgets match)."""
        inputs = style_inputs(self)
        if restyle_needed(self._styled_with, inputs):
            super().refresh_css(animate)
        self._styled_with = inputs

    def on_mount(self) -> None:
        for problem in self._theme_problems:
            self.notify(str(problem), title="Theme skipped", severity="warning")
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.open_first_screen()

    def open_first_screen(self) -> None:
        """The recorded session's steps, the connect screen, or (the target given) the
        overview, where step 1 already runs (``on_load``)."""
        if self.session is not None:
            self.switch_mode("steps")
            for warning in self.session.warnings:
                self.notify(
                    warning,
                    title="Session warning",
                    severity="warning",
                )
        elif self.initial_target is None:
            self.action_connect()

    def _resume_collection(self) -> None:
        if self._collecting:
            gc.enable()
            self._collecting = False

    async def on_unmount(self) -> None:
        self._resume_collection()  # when it ends before its first frame
        # Stop a running step first (its stream cannot be closed under it), then close the
        # engines' HTTP clients and any open stream: no socket outlives the app.
        for worker in self.workers.cancel_group(self, ENGINE_GROUP):
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        live = self.sessions.live
        for engine in (self.engine, live.engine if live is not None else None):
            if engine is not None:
                await engine.aclose()

    def _remember_theme(self, theme: Any) -> None:
        self.dirs.save_setting("theme", theme.name)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from palette.system_commands(self, super().get_system_commands(screen))

    def copy_to_clipboard(self, text: str) -> None:
        """Every copy (OSC 52) carries printable text only: agent text may hold escapes."""
        super().copy_to_clipboard(clipboard_text(text))

    # -- state -------------------------------------------------------------------------------
    def secret_location(self) -> str | None:
        """The target on screen (or given on the command line): its URL may hold a password."""
        run = self.current_run
        location = run.target.location if run is not None else None
        if location is None and self.initial_target is not None:
            location = self.initial_target.location
        return location

    def update_display_policy(self) -> None:
        """Mask every known secret on screen from now on: the credentials of the options,
        the tokens issued during the run, a password in the card URL, and the values the
        user marked secret."""
        self._mask_secrets()
        self.request_redraw()

    def issued_secrets(self) -> tuple[tuple[str, str], ...]:
        """The tokens fetched during the run on screen: masked, and redacted in a crash."""
        run = self.current_run
        return run.issued.pairs() if run is not None else ()

    def _mask_secrets(self) -> None:
        issued = self.issued_secrets()
        self._issued_masked = len(issued)
        self.display_policy = self.display_policy.masking(
            secret_forms(
                self.options,
                location=self.secret_location(),
                secret_values=self.secret_values,
                secret_headers=self.secret_headers,
                issued=issued,
            )
        )

    def request_redraw(self) -> None:
        self.redraws_requested += 1
        if self._redraw_pending:
            return  # the pending redraw reads the run as it will be: a flood is one redraw
        self._redraw_pending = True
        self.post_message(RunUpdated())

    def on_run_updated(self, message: RunUpdated) -> None:
        self._redraw_pending = False
        if not self.screen_stack:
            return  # the app is shutting down: a step cancelled by it has nothing to redraw
        run = self.current_run
        masks_changed = run is not None and len(run.issued) != self._issued_masked
        if masks_changed:
            self._mask_secrets()  # a token fetched since: masked before this redraw shows it
        screen = self.screen
        if not masks_changed and getattr(screen, "drawn_at", None) == self.redraws_requested:
            # The screen drew itself (shown, ``on_screen_resume``) after the last change was
            # announced: drawing it again would show the same. At start-up step 1 usually
            # ends before the first screen is shown, which then drew the card twice.
            return
        refresh = getattr(screen, "refresh_run", None)
        if callable(refresh):
            refresh()

    def on_engine_failed(self, message: EngineFailed) -> None:
        self.notify(
            message.error,
            title="Engine error",
            severity="error",
        )

    # -- actions (network work only in workers) ---------------------------------------------
    def connect(self, target: Target, options: ClientOptions | None = None) -> None:
        """Point the debugger at ``target`` and run step 1 (retrieve the card)."""
        self.connection.connect(target, options)

    def action_connect(self) -> None:
        """Open the connect screen."""
        self.connection.ask_target()

    def choose_skill(self, skill_id: str) -> bool:
        return self.engine_actions.choose_skill(skill_id)

    def action_help(self) -> None:
        """Help for the focused pane."""
        from sia_tui.tui.screens.help import HelpScreen, bindings_markdown, help_title

        screen = self.screen
        focused = self.focused
        bindings: list[BindingType] = list(getattr(screen, "BINDINGS", []))
        title = help_title(screen, focused, self.MODE_SPECS)
        intro = getattr(screen, "HELP", "")
        if focused is not None:
            # The screen's own keys first: they are what the pane is for; navigation after.
            bindings = bindings + list(type(focused).BINDINGS)
        bindings += list(self.BINDINGS)
        self.push_screen(HelpScreen(bindings_markdown(title, intro, bindings)))

    # -- the services, as Textual's actions and the screens' SiaHost reach them -------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Esc means "back to the live run" only while one waits aside.
        if action == "back_to_live":
            return self.sessions.has_live_run
        return True

    @property
    def current_run(self) -> Run | None:
        return self.view.current_run

    @property
    def shown_invocation(self) -> Invocation | None:
        return self.view.shown_invocation

    def action_show_invocation(self, step: int) -> None:
        """Show the previous (-1) or next (+1) invocation of the run."""
        self.view.show(step)

    @property
    def engine_busy(self) -> bool:
        return self.engine_actions.engine_busy

    def refuse_if_busy(self) -> bool:
        return self.engine_actions.refuse_if_busy()

    def action_run_next(self) -> None:
        """Run the next step."""
        self.engine_actions.run_next()

    def action_run_all(self) -> None:
        """Run every remaining step."""
        self.engine_actions.run_all()

    def action_restart(self) -> None:
        """Start again from step 1 (re-fetches the card); may interrupt running steps."""
        self.engine_actions.restart()

    def action_cancel_task(self) -> None:
        """Cancel the running task (when the document says it is cancellable)."""
        self.engine_actions.cancel_task()

    def invoke(self, arguments: Any, send_anyway: bool) -> None:
        self.engine_actions.invoke(arguments, send_anyway)

    def reply_to_task(self, reply: Reply) -> None:
        self.engine_actions.reply_to_task(reply)

    def open_console(self, skill_id: str | None = None) -> None:
        self.engine_actions.open_console(skill_id)

    def send_console(self, request: ConsoleRequest) -> None:
        self.engine_actions.send_console(request)

    @property
    def read_only(self) -> bool:
        return self.sessions.read_only

    @property
    def has_live_run(self) -> bool:
        return self.sessions.has_live_run

    def refuse_if_read_only(self) -> bool:
        return self.sessions.refuse_if_read_only()

    def open_session_file(self, path: Path, mode: str = "steps") -> Worker[None]:
        return self.sessions.open_session_file(path, mode)

    def open_listed_task(self, task: Task) -> None:
        self.sessions.open_listed_task(task)

    def action_back_to_live(self) -> None:
        """Leave the recorded run: the live run comes back as it was left."""
        self.sessions.back_to_live()

    def action_save_session(self) -> None:
        """Preview the redactions, then save the current run where the user says."""
        self.sessions.save_session()

    def save_probe_run(self, report: ProbeReport) -> None:
        self.sessions.save_probe_run(report)

    def autosave_probe_run(self, report: ProbeReport) -> None:
        self.sessions.autosave_probe_run(report)

    def action_export_har(self) -> None:
        """Write every exchange of the run as HAR 1.2, redacted as a saved session is."""
        self.sessions.export_har()

    def action_mark_secret(self) -> None:
        """Ask for a value to treat as secret."""
        self.sessions.mark_secret()

    def add_secret_values(self, values: Iterable[str]) -> None:
        """Mark values secret: redacted on save, masked on screen from now on."""
        self.sessions.add_secret_values(values)

    def copy_text(self, text: str, what: str) -> None:
        self.exports.copy_text(text, what)

    def action_write_last_copy(self) -> None:
        """Write the last copied text to a file in the download folder (the fallback)."""
        self.exports.write_last_copy()

    def action_screenshot_to_file(self) -> None:
        """Save an SVG of the screen in the download folder (secrets stay masked)."""
        self.exports.screenshot_to_file()
