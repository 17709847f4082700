"""The Textual app: modes, bindings, theme registration, and routing to the engine."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, ClassVar

from textual import work
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.worker import WorkerCancelled, WorkerFailed

from sia_tui.core.engine import (
    ClientOptions,
    Run,
    StepResult,
    StreamEvent,
    Target,
    advertised_skills,
    clipboard_text,
)
from sia_tui.core.session import LoadedSession
from sia_tui.tui import palette
from sia_tui.tui.display import set_marked_values, set_reveal_marked, set_snapshot_mode, visible
from sia_tui.tui.engine import Engine, EngineFactory, build_procedure
from sia_tui.tui.engine_actions import ENGINE_GROUP, EngineActionsApp
from sia_tui.tui.messages import EngineFailed, RunUpdated
from sia_tui.tui.readonly import ReadOnlyEngine
from sia_tui.tui.screens.compose_mode import ComposeMode
from sia_tui.tui.screens.connect import ConnectRequest, ConnectScreen
from sia_tui.tui.screens.digests import DigestsScreen
from sia_tui.tui.screens.document import DocumentScreen
from sia_tui.tui.screens.help import HelpScreen, bindings_markdown
from sia_tui.tui.screens.history import HistoryMode
from sia_tui.tui.screens.invoke import InvokeScreen
from sia_tui.tui.screens.overview import OverviewScreen
from sia_tui.tui.screens.probe import ProbeScreen
from sia_tui.tui.screens.results import ResultsScreen
from sia_tui.tui.screens.steps import StepsScreen
from sia_tui.tui.storage import UserDirs
from sia_tui.tui.themes import APP_VARIABLE_DEFAULTS, DEFAULT_THEME, load_themes


class SiaApp(EngineActionsApp):
    """sia-tui: debug a schema-governed A2A skill step by step."""

    TITLE = "sia-tui"
    #: Mode name -> screen; number keys 1-9 in this order.
    MODES: ClassVar[dict[str, Any]] = {
        "overview": OverviewScreen,
        "steps": StepsScreen,
        "digests": DigestsScreen,
        "document": DocumentScreen,
        "invoke": InvokeScreen,
        "results": ResultsScreen,
        "history": HistoryMode,
        "compose": ComposeMode,
        "probe": ProbeScreen,
    }
    DEFAULT_MODE = "overview"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "switch_mode('overview')", "Overview", id="mode.overview"),
        Binding("2", "switch_mode('steps')", "Steps", id="mode.steps"),
        Binding("3", "switch_mode('digests')", "Digests", id="mode.digests"),
        Binding("4", "switch_mode('document')", "Document", id="mode.document"),
        Binding("5", "switch_mode('invoke')", "Invoke", id="mode.invoke"),
        Binding("6", "switch_mode('results')", "Results", id="mode.results"),
        Binding("7", "switch_mode('history')", "History", id="mode.history"),
        Binding("8", "switch_mode('compose')", "Compose", id="mode.compose"),
        Binding("9", "switch_mode('probe')", "Probe", id="mode.probe"),
        Binding("ctrl+s", "save_session", "Save", id="session.save"),
        Binding("f1", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit"),
    ]

    def __init__(
        self,
        target: Target | None = None,
        options: ClientOptions | None = None,
        *,
        engine_factory: EngineFactory = build_procedure,
        dirs: UserDirs | None = None,
        snapshot_mode: bool = False,
        session: LoadedSession | None = None,
        secret_values: tuple[str, ...] = (),
        secret_headers: tuple[str, ...] = (),
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
        self.snapshot_mode = snapshot_mode
        """Hide ports and clocks, never read remembered settings (stable screenshots)."""
        set_snapshot_mode(snapshot_mode)
        self.engine: Engine | None = None
        """The engine for the current target."""
        self.stream_log: list[StreamEvent] = []
        """Stream events of the current invocation, for the live status view."""
        self.session = session
        self.secret_values = list(secret_values)
        self.secret_headers = list(secret_headers)
        self._autosaved = set()
        self._redraw_pending = False
        set_marked_values(self.secret_values)
        set_reveal_marked(False)
        if session is not None:
            # A recorded session: every screen renders from its bytes, no client is built.
            self.engine = ReadOnlyEngine(session)

    # -- themes ------------------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(APP_VARIABLE_DEFAULTS)

    def on_mount(self) -> None:
        for theme in load_themes():
            self.register_theme(theme)
        remembered = None if self.snapshot_mode else self.dirs.load_settings().get("theme")
        # Set explicitly: TEXTUAL_THEME must not leak into what the user (or a snapshot) sees.
        self.theme = remembered if remembered in self.available_themes else DEFAULT_THEME
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.open_first_screen()

    def open_first_screen(self) -> None:
        """The recorded session's steps, the target's overview, or the connect screen."""
        if self.session is not None:
            self.switch_mode("steps")
            for warning in self.session.warnings:
                self.notify(
                    visible(warning), title="Session warning", severity="warning", markup=False
                )
        elif self.initial_target is not None:
            self.connect(self.initial_target)
        else:
            self.action_connect()

    async def on_unmount(self) -> None:
        # Stop a running step first (its stream cannot be closed under it), then close the
        # engine's HTTP client and any open stream: no socket outlives the app.
        for worker in self.workers.cancel_group(self, ENGINE_GROUP):
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        if self.engine is not None:
            await self.engine.aclose()
        set_marked_values(())  # the masking list is process-wide; it ends with this app

    def _remember_theme(self, theme: Any) -> None:
        if not self.snapshot_mode:
            self.dirs.save_setting("theme", theme.name)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from palette.system_commands(self, super().get_system_commands(screen))

    def copy_to_clipboard(self, text: str) -> None:
        """Every copy (OSC 52) carries printable text only (issue 18 item 2)."""
        super().copy_to_clipboard(clipboard_text(text))

    # -- state -------------------------------------------------------------------------------
    @property
    def current_run(self) -> Run | None:
        """The engine's run, or None before a target is connected."""
        return self.engine.run if self.engine is not None else None

    def connect(self, target: Target, options: ClientOptions | None = None) -> None:
        """Point the debugger at ``target`` and run step 1 (retrieve the card)."""
        if not self.snapshot_mode:
            self.dirs.remember_target(target.location)
        self._start(target, options or self.options)

    @work(exclusive=True, group=ENGINE_GROUP)
    async def _start(self, target: Target, options: ClientOptions) -> None:
        if self.engine is not None:
            await self.engine.aclose()
        self.stream_log.clear()
        self.session = None  # a live target: sending is allowed again
        self.engine = self.engine_factory(target, options, self._on_engine_update)
        self.post_message(RunUpdated())
        await self._guarded(self.engine.step())
        self._default_skill()

    def _default_skill(self) -> None:
        """After step 1, pick the first advertised skill so ``r`` can run everything."""
        run = self.current_run
        if run is None or run.card is None or run.target.skill_id is not None:
            return
        skills = advertised_skills(run.card)
        if len(skills) > 1 and self.engine is not None:
            self.engine.select_skill(skills[0])
            self.notify(
                f"{len(skills)} skills advertised; working on {visible(skills[0])}. "
                "Pick another on the Overview (1).",
                markup=False,
            )

    def _on_engine_update(
        self, run: Run, step: StepResult | None, event: StreamEvent | None
    ) -> None:
        # Called on the app's loop by the engine; redraw happens in the message handler.
        if event is not None:
            self.stream_log.append(event)
        if self._redraw_pending:
            return  # the pending redraw reads the run as it will be: a flood is one redraw
        self._redraw_pending = True
        self.post_message(RunUpdated(step, event))

    def on_run_updated(self, message: RunUpdated) -> None:
        self._redraw_pending = False
        if not self.screen_stack:
            return  # the app is shutting down: a step cancelled by it has nothing to redraw
        refresh = getattr(self.screen, "refresh_run", None)
        if callable(refresh):
            refresh()

    def on_engine_failed(self, message: EngineFailed) -> None:
        self.notify(visible(message.error), title="Engine error", severity="error", markup=False)

    # -- actions (network work only in workers) ---------------------------------------------
    def action_connect(self) -> None:
        """Open the connect screen."""
        screen = ConnectScreen(self.dirs.recent_targets(), deadline=self.options.deadline)
        self.push_screen(screen, self._connect_chosen)

    def _connect_chosen(self, request: ConnectRequest | None) -> None:
        if request is None:
            return
        self.add_secret_values(request.secret_values)
        options = replace(
            self.options,
            headers=self.options.headers + request.headers,
            bearer=request.bearer or self.options.bearer,
            verify=False if request.insecure else self.options.verify,
            deadline=request.deadline,
        )
        self.connect(request.target, options)

    def choose_skill(self, skill_id: str) -> None:
        """Make ``skill_id`` the skill every screen works on."""
        if self.refuse_if_read_only() or self.engine is None or self.refuse_if_busy():
            return  # selecting resets steps 2-11: never under a running step
        try:
            self.engine.select_skill(skill_id)
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.notify(
                visible(str(exc)), title="Cannot select skill", severity="error", markup=False
            )
            return
        self.post_message(RunUpdated())
        self.notify(
            f"Skill selected: {visible(skill_id)}. Press 2 then r to run the steps.", markup=False
        )

    def action_help(self) -> None:
        """Help for the focused pane."""
        screen = self.screen
        focused = self.focused
        bindings: list[BindingType] = list(getattr(screen, "BINDINGS", []))
        title = type(screen).__name__.removesuffix("Screen")
        intro = getattr(screen, "HELP", "")
        if focused is not None:
            # The screen's own keys first: they are what the pane is for; navigation after.
            bindings = bindings + list(type(focused).BINDINGS)
            title = f"{title}: {type(focused).__name__}"
        bindings += list(self.BINDINGS)
        self.push_screen(HelpScreen(bindings_markdown(title, intro, bindings)))
