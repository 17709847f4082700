"""Pointing the debugger at an agent: the connect dialog, a new engine, step 1, the recent list.

The app keeps one engine at a time; connecting closes the one on screen (and a live run
kept aside), builds the next with the app's ``engine_factory`` and runs step 1 in the
engine's worker group, so ``n`` / ``r`` are refused until the card is in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from sia_tui.core.run import Step, StepStatus, advertised_skills
from sia_tui.tui.app_calls import AppCalls, app_work
from sia_tui.tui.engine_actions import ENGINE_GROUP
from sia_tui.tui.host import ConsoleState

if TYPE_CHECKING:
    from sia_tui.core.a2a import ClientOptions, StreamEvent
    from sia_tui.core.run import Run, StepResult, Target
    from sia_tui.core.session import LoadedSession
    from sia_tui.tui.engine_actions import EngineActions
    from sia_tui.tui.engine_port import Engine, EngineFactory
    from sia_tui.tui.screens.connect import ConnectRequest
    from sia_tui.tui.session_actions import SessionActions
    from sia_tui.tui.storage import UserDirs


class ConnectionHost(AppCalls, Protocol):
    """What ``Connection`` reads and replaces of the app."""

    engine: Engine | None
    session: LoadedSession | None
    options: ClientOptions
    console_state: ConsoleState
    secret_values: list[str]

    @property
    def engine_factory(self) -> EngineFactory: ...
    @property
    def dirs(self) -> UserDirs: ...
    @property
    def remember_targets(self) -> bool: ...
    @property
    def current_run(self) -> Run | None: ...
    def update_display_policy(self) -> None: ...
    def request_redraw(self) -> None: ...


class Connection:
    """Connecting to a target, a service of ``SiaApp``."""

    def __init__(
        self, app: ConnectionHost, sessions: SessionActions, engine_actions: EngineActions
    ) -> None:
        self.app = app
        self.sessions = sessions
        """Holds the live run kept aside, which a new target replaces."""
        self.engine_actions = engine_actions
        """Runs step 1 as every step runs: an engine error is shown, never a crash."""

    def connect(self, target: Target, options: ClientOptions | None = None) -> None:
        """Point the debugger at ``target`` and run step 1 (retrieve the card)."""
        self._start(target, options or self.app.options)

    @app_work(exclusive=True, group=ENGINE_GROUP)
    async def _start(self, target: Target, options: ClientOptions) -> None:
        app = self.app
        if app.engine is not None:
            await app.engine.aclose()
        await self.sessions.drop_live_run()
        app.console_state = ConsoleState()
        app.session = None  # a live target: sending is allowed again
        app.options = options
        app.engine = app.engine_factory(target, options, self._on_engine_update)
        app.update_display_policy()
        await self.engine_actions.guarded(app.engine.step())
        run = app.engine.run
        if run.step(Step.CARD).status is StepStatus.PASSED and app.remember_targets:
            # Only a target that answered: a typo or a dead port does not fill the list.
            self._remember_target(target.location)
        self._default_skill()

    @app_work(thread=True, group="recent-targets")
    def _remember_target(self, location: str) -> None:
        # A file write with fsync: off the UI thread.
        self.app.dirs.remember_target(location)

    def _default_skill(self) -> None:
        """After step 1, pick the first advertised skill so ``r`` can run everything (the
        Overview opens on the skill list with it marked ●)."""
        run = self.app.current_run
        if run is None or run.card is None or run.target.skill_id is not None:
            return
        skills = advertised_skills(run.card)
        if len(skills) > 1 and self.app.engine is not None:
            self.app.engine.select_skill(skills[0])

    def _on_engine_update(
        self, run: Run, step: StepResult | None, event: StreamEvent | None
    ) -> None:
        # Called on the app's loop by the engine; redraw happens in the message handler.
        # A streamed event is in the run already (``Run.stream_events``, per invocation).
        self.app.request_redraw()

    def ask_target(self) -> None:
        """Open the connect screen."""
        from sia_tui.tui.screens.connect import ConnectScreen

        app = self.app
        screen = ConnectScreen(app.dirs.recent_targets(), deadline=app.options.deadline)
        app.push_screen(screen, self._connect_chosen)

    def _connect_chosen(self, request: ConnectRequest | None) -> None:
        if request is None:
            return
        secret_values, options = self.app.secret_values, self.app.options
        for value in request.secret_values:
            if value not in secret_values:
                secret_values.append(value)
        options = replace(
            options,
            headers=options.headers + request.headers,
            bearer=request.bearer or options.bearer,
            api_key=request.api_key or options.api_key,
            oauth2=request.oauth2 or options.oauth2,
            verify=False if request.insecure else options.verify,
            deadline=request.deadline,
        )
        self.connect(request.target, options)
