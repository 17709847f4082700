"""The app's session side: save with a redaction preview, autosave, open read-only, secrets."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sia_tui.core.errors import SiaError
from sia_tui.core.run import frozen_copy
from sia_tui.tui.app_calls import AppCalls, app_work
from sia_tui.tui.readonly import ReadOnlyEngine, read_only_notice

if TYPE_CHECKING:  # saving, loading and their dialogs load when first used
    from textual.notifications import SeverityLevel

    from sia_tui.core.a2a import ClientOptions, Task
    from sia_tui.core.probe import ProbeReport
    from sia_tui.core.redaction import RedactionHit
    from sia_tui.core.run import Run
    from sia_tui.core.session import LoadedSession
    from sia_tui.tui.engine_port import Engine
    from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
#: The titles of what the app says about a recorded run on screen ("Esc returns to the live
#: run", "read-only session", its load warnings): no longer true once the live run is back.
_RECORDED, _READ_ONLY, _SESSION_WARNING = "History", "Read-only", "Session warning"


def default_session_path(run: Run, now: float | None = None, suffix: str = ".session.json") -> str:
    """``./sia-<skill>-<UTC time>.session.json`` (the skill id made filename-safe); f9's HAR
    goes to the same folder, with ``suffix`` ".har"."""
    skill = _UNSAFE_NAME.sub("_", run.skill_id or run.target.skill_id or "run")[:60]
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    return f"./sia-{skill}-{stamp}{suffix}"


@dataclass
class LiveRun:
    """The live engine, kept aside while a recorded run from the history is on screen."""

    engine: Engine
    mode: str


@dataclass
class AutosaveSlot:
    """The history entry of the run on screen: later saves of the same run update it."""

    run: Run
    state: tuple[int, tuple[str, ...]]
    entry_id: str | None = None
    #: One save at a time per run, so the second one knows the first one's entry.
    lock: threading.Lock = field(default_factory=threading.Lock)


def _state(run: Run) -> tuple[int, tuple[str, ...]]:
    """What changes when a run moves on: its exchanges and its step statuses."""
    return len(run.exchanges), tuple(s.status.value for s in run.steps)


@dataclass(frozen=True)
class SaveRequest:
    """What one save writes: a run, and for a probe run its ``probe`` member."""

    run: Run
    #: The ``probe`` member (plan and grades) of a probe run, or None for a plain run.
    probe: dict[str, Any] | None = None


def _what_is_saved(run: Run) -> str:
    """The save dialog's word on the invocations ("" for a run of one)."""
    total = len(run.invocations)
    if total == 1:
        return ""
    return (
        f"Saves all {total} invocations of this run, each with its own arguments, exchanges "
        f"and verdict; the last one, invocation {total} of {total}, is the run as it is now."
    )


class SessionHost(AppCalls, Protocol):
    """What ``SessionActions`` reads and changes of the app."""

    engine: Engine | None
    """The engine on screen: a recorded session's replaces the live one, and back."""
    session: LoadedSession | None
    """The recorded session on screen (read-only), or None for a live target."""
    options: ClientOptions
    secret_values: list[str]
    """Values the user marked secret: redacted in files, masked on screen."""
    secret_headers: list[str]
    """Header names the user marked secret."""

    @property
    def current_run(self) -> Run | None: ...
    def request_redraw(self) -> None: ...
    def update_display_policy(self) -> None: ...


class SessionActions:
    """Save, HAR export, autosave, recorded runs and secret values: a service of ``SiaApp``."""

    def __init__(self, app: SessionHost) -> None:
        self.app = app
        self._autosave_slot: AutosaveSlot | None = None
        """The run last autosaved and its history entry, so each run is one entry."""
        self.live: LiveRun | None = None
        """The live run while a recorded one from the history is shown (Esc goes back)."""

    def _notify_from_worker(
        self, text: str, title: str, severity: SeverityLevel = "information"
    ) -> None:
        """A notice from a worker thread (``notify`` shows the text of an agent or a file
        as it is)."""
        self.app.call_from_thread(self.app.notify, text, title=title, severity=severity)

    # -- read-only ---------------------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """True while a recorded session is shown: nothing may be sent."""
        return self.app.session is not None

    def refuse_if_read_only(self) -> bool:
        """Tell the user and return True when the current run is a recorded session."""
        if self.app.session is None:
            return False
        self.app.notify(read_only_notice(self.app.session), title=_READ_ONLY, severity="warning")
        return True

    @app_work(thread=True, exclusive=True, group="session-load")
    def open_session_file(self, path: Path, mode: str = "steps") -> None:
        """Load a session file (off the UI thread) and show it read-only on ``mode``."""
        from sia_tui.core.probe import load_checked_session

        try:
            loaded = load_checked_session(path)
        except SiaError as exc:
            self._notify_from_worker(str(exc), "Cannot open session", severity="error")
            return
        self.app.call_from_thread(self.install_session, loaded, mode)

    @app_work(exclusive=True, group="engine")
    async def install_session(self, loaded: LoadedSession, mode: str = "steps") -> None:
        """Show the recorded run on every screen; the live one waits aside, unchanged, until
        Esc (``back_to_live``) brings it back."""
        if self.app.engine is not None and self.app.session is None:
            self.live = LiveRun(self.app.engine, self.app.current_mode)
        elif self.app.engine is not None:
            await self.app.engine.aclose()  # another recorded run: nothing live to keep
        self.app.session = loaded
        self.app.engine = ReadOnlyEngine(loaded)
        await self.app.switch_mode(mode)
        self.app.request_redraw()
        self.app.notify(
            "A recorded run, read-only: nothing is sent. Esc returns to the live run."
            if self.live is not None
            else "A recorded run, read-only: nothing is sent.",
            title=_RECORDED,
        )
        for warning in loaded.warnings:
            self.app.notify(
                warning,
                title=_SESSION_WARNING,
                severity="warning",
            )

    def open_listed_task(self, task: Task) -> None:
        """A task the agent listed (ListTasks), shown read-only on Results like a recorded
        run: the card and that task, no step run (never a verdict); Esc comes back."""
        from sia_tui.core.engine import task_run
        from sia_tui.core.session import LoadedSession

        run = self.app.current_run
        if run is None:
            return
        listed = LoadedSession(
            run=task_run(run, task),
            created="",
            tool={},
            environment={},
            options={},
            redactions=[],
        )
        self.install_session(listed, "results")

    @property
    def has_live_run(self) -> bool:
        """True while a recorded run is shown and the live one waits aside."""
        return self.live is not None

    def back_to_live(self) -> None:
        """Leave the recorded run: the live run comes back as it was left."""
        live, self.live = self.live, None
        if live is None:
            self.app.notify("No live run to go back to.", severity="warning")
            return
        self.app.session = None
        self.app.engine = live.engine
        self.app.switch_mode(live.mode)
        self.app.request_redraw()
        for title in (_RECORDED, _READ_ONLY, _SESSION_WARNING):
            self.app.withdraw_notices(title)
        self.app.notify("Back to the live run.")

    async def drop_live_run(self) -> None:
        """Close the live run kept aside (a new target replaces it)."""
        live, self.live = self.live, None
        if live is not None:
            await live.engine.aclose()

    # -- save --------------------------------------------------------------------------------
    def _save_options(self) -> ClientOptions:
        from sia_tui.core.a2a import ClientOptions

        # A loaded session's options are placeholders already; save it with neutral ones.
        return ClientOptions() if self.read_only else self.app.options

    def save_session(self) -> None:
        """Preview the redactions, then save the current run where the user says."""
        run = self.app.engine.run if self.app.engine is not None else None
        if run is None:
            self.app.notify("Nothing to save yet: connect to an agent first.", severity="warning")
            return
        self._prepare_save(SaveRequest(frozen_copy(run)))

    def save_probe_run(self, report: ProbeReport) -> None:
        """Preview the redactions, then save a probe run (its learning run, every exchange and
        the grades) as a session that ``sia-tui replay`` re-grades."""
        from sia_tui.core.probe import probe_member, session_run

        self._prepare_save(SaveRequest(session_run(report), probe_member(report)))

    @app_work(thread=True, exclusive=True, group="session-save")
    def _prepare_save(self, request: SaveRequest) -> None:
        from sia_tui.core.session import preview_redactions

        try:
            hits = preview_redactions(
                request.run,
                self._save_options(),
                self.app.secret_values,
                self.app.secret_headers,
                probe=request.probe,
            )
        except SiaError as exc:
            self._notify_from_worker(str(exc), "Cannot save", severity="error")
            return
        self.app.call_from_thread(self._show_preview, request, hits)

    def _show_preview(self, request: SaveRequest, hits: list[RedactionHit]) -> None:
        from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen

        screen = RedactionPreviewScreen(
            hits, default_session_path(request.run), saves=_what_is_saved(request.run)
        )
        self.app.push_screen(screen, partial(self._preview_answered, request, screen))

    def _preview_answered(
        self, request: SaveRequest, screen: RedactionPreviewScreen, yes: bool | None
    ) -> None:
        if yes:
            self._write(request, screen.destination)
        else:
            self.app.notify("Not saved.")

    @app_work(thread=True, group="session-save")
    def _write(self, request: SaveRequest, destination: str) -> None:
        from sia_tui.core.session import save_session

        try:
            saved = save_session(
                request.run,
                self._save_options(),
                Path(destination).expanduser(),
                secret_values=self.app.secret_values,
                secret_headers=self.app.secret_headers,
                probe=request.probe,
            )
        except SiaError as exc:
            self._notify_from_worker(str(exc), "Cannot save", severity="error")
            return
        self._notify_from_worker(
            f"Saved {saved.path} ({saved.size:,} bytes, {len(saved.redactions)} redactions)",
            "Session saved",
        )

    # -- HAR export --------------------------------------------------------------------------
    def export_har(self) -> None:
        """Write every exchange of the run as HAR 1.2, redacted as a saved session is
        (browser devtools, Charles and Insomnia import it): the save dialog of ctrl+s asks
        where, with the same default folder."""
        run = self.app.engine.run if self.app.engine is not None else None
        if run is None or not run.exchanges:
            self.app.notify(
                "No exchange to export yet: connect to an agent first.", severity="warning"
            )
            return
        self._prepare_har(frozen_copy(run))

    @app_work(thread=True, exclusive=True, group="session-har")
    def _prepare_har(self, run: Run) -> None:
        from sia_tui.core.session import preview_redactions

        hits: list[RedactionHit] = []
        try:
            if self.app.session is None:  # a recorded one was redacted when it was saved
                hits = preview_redactions(
                    run, self._save_options(), self.app.secret_values, self.app.secret_headers
                )
        except SiaError as exc:
            self._notify_from_worker(str(exc), "Cannot export", severity="error")
            return
        self.app.call_from_thread(self._ask_har_path, run, hits)

    def _ask_har_path(self, run: Run, hits: list[RedactionHit]) -> None:
        from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen

        path = default_session_path(run, suffix=".har")
        screen = RedactionPreviewScreen(hits, path, saves=_what_is_saved(run), what="HAR")
        self.app.push_screen(screen, partial(self._har_answered, run, screen))

    def _har_answered(self, run: Run, screen: RedactionPreviewScreen, yes: bool | None) -> None:
        if yes:
            self._write_har(run, screen.destination)
        else:
            self.app.notify("Not saved.")

    @app_work(thread=True, group="session-har")
    def _write_har(self, run: Run, destination: str) -> None:
        from sia_tui.core.atomic_file import atomic_write
        from sia_tui.core.session import har_of_run, render_har

        session = self.app.session
        path = Path(destination).expanduser()
        try:
            if session is not None:  # recorded, so redacted when it was saved: as it is
                text = render_har(session)
            else:
                text = har_of_run(
                    run, self._save_options(), self.app.secret_values, self.app.secret_headers
                )
            atomic_write(path, text)
        except SiaError as exc:
            self._notify_from_worker(str(exc), "Cannot export", severity="error")
            return
        except OSError as exc:
            self._notify_from_worker(
                f"Cannot write {path}: {exc.strerror or exc}", "Not saved", severity="error"
            )
            return
        self._notify_from_worker(str(path), "Wrote HAR")

    # -- autosave ----------------------------------------------------------------------------
    def maybe_autosave(self) -> None:
        """Autosave the run into the history each time it finishes; one entry per run.

        A run is saved after steps 1-6 (waiting for arguments) and again after its
        invocation: the second save updates the first entry instead of adding one.
        """
        run = self.app.engine.run if self.app.engine is not None else None
        if run is None or self.read_only or not run.verdict.finished:
            return
        slot = self._autosave_slot
        if slot is not None and slot.run is run:
            if slot.state == _state(run):
                return  # nothing new since the last save
            slot.state = _state(run)
        else:
            slot = self._autosave_slot = AutosaveSlot(run, _state(run))
        self._autosave(frozen_copy(run), slot)

    @app_work(thread=True, group="autosave")
    def _autosave(self, run: Run, slot: AutosaveSlot) -> None:
        from sia_tui.core.session import autosave

        try:
            with slot.lock:
                path = autosave(
                    run,
                    self.app.options,
                    secret_values=self.app.secret_values,
                    secret_headers=self.app.secret_headers,
                    entry_id=slot.entry_id,
                )
                slot.entry_id = path.name.removesuffix(".session.json")
        except Exception as exc:  # noqa: BLE001 - a failed autosave is a notice, never a crash
            self._notify_from_worker(
                f"{type(exc).__name__}: {exc}", "Autosave failed", severity="warning"
            )
            return
        self.app.call_from_thread(self.app.request_redraw)

    def autosave_probe_run(self, report: ProbeReport) -> None:
        """Put a finished probe run into the history, like every run (one entry each)."""
        from sia_tui.core.probe import probe_member, session_run

        if not self.read_only:
            self._autosave_probe(session_run(report), probe_member(report), report.outcome)

    @app_work(thread=True, group="autosave")
    def _autosave_probe(self, run: Run, probe: dict[str, Any], outcome: str) -> None:
        from sia_tui.core.session import autosave

        try:
            autosave(
                run,
                self.app.options,
                secret_values=self.app.secret_values,
                secret_headers=self.app.secret_headers,
                probe=probe,
                probe_outcome=outcome,
            )
        except Exception as exc:  # noqa: BLE001 - a failed autosave is a notice, never a crash
            self._notify_from_worker(
                f"{type(exc).__name__}: {exc}", "Autosave failed", severity="warning"
            )
            return
        self.app.call_from_thread(self.app.request_redraw)

    # -- secret values -----------------------------------------------------------------------
    def add_secret_values(self, values: Iterable[str]) -> None:
        """Mark values secret: redacted on save, masked on screen from now on."""
        for value in values:
            if value and value not in self.app.secret_values:
                self.app.secret_values.append(value)
        self.app.update_display_policy()

    def mark_secret(self) -> None:
        """Ask for a value to treat as secret."""
        from sia_tui.tui.screens.prompt import PromptScreen

        self.app.push_screen(
            PromptScreen(
                "Mark a value secret",
                "It is masked on screen and redacted in every saved "
                "session (e.g. an argument value).",
                password=True,
            ),
            self._secret_entered,
        )

    def _secret_entered(self, value: str | None) -> None:
        if value:
            self.add_secret_values([value])
            self.app.notify("Value marked secret: masked on screen and redacted when saved.")
