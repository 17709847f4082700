"""The app's session side: save with a redaction preview, autosave, open read-only, secrets."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path

from textual import work
from textual.app import App

from sia_tui.core.engine import ClientOptions, Run, SiaError
from sia_tui.core.session import (
    LoadedSession,
    RedactionHit,
    autosave,
    load_session,
    preview_redactions,
)
from sia_tui.core.session import save_session as write_session
from sia_tui.tui.display import set_marked_values, visible
from sia_tui.tui.engine import Engine
from sia_tui.tui.messages import RunUpdated
from sia_tui.tui.readonly import ReadOnlyEngine, read_only_notice
from sia_tui.tui.screens.prompt import PromptScreen
from sia_tui.tui.screens.redaction_preview import RedactionPreviewScreen

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def default_session_path(run: Run, now: float | None = None) -> str:
    """``./sia-<skill>-<UTC time>.session.json`` (the skill id made filename-safe)."""
    skill = _UNSAFE_NAME.sub("_", run.skill_id or run.target.skill_id or "run")[:60]
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    return f"./sia-{skill}-{stamp}.session.json"


def _snapshot(run: Run) -> Run:
    """A shallow copy the saving thread can read while the engine moves on."""
    return replace(
        run, steps=list(run.steps), exchanges=list(run.exchanges), records=list(run.records)
    )


class SessionApp(App[None]):
    """Session features of ``SiaApp``: its subclass sets the attributes declared here."""

    engine: Engine | None
    options: ClientOptions
    snapshot_mode: bool
    session: LoadedSession | None
    """The recorded session on screen (read-only), or None for a live target."""
    secret_values: list[str]
    """Values the user marked secret: redacted in files, masked on screen."""
    secret_headers: list[str]
    """Header names the user marked secret."""
    _autosaved: set[tuple[int, int, tuple[str, ...]]]
    """Run states already autosaved, so each finished run is saved once."""

    # -- read-only ---------------------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """True while a recorded session is shown: nothing may be sent."""
        return self.session is not None

    def refuse_if_read_only(self) -> bool:
        """Tell the user and return True when the current run is a recorded session."""
        if self.session is None:
            return False
        self.notify(
            read_only_notice(self.session), title="Read-only", severity="warning", markup=False
        )
        return True

    @work(thread=True, exclusive=True, group="session-load")
    def open_session_file(self, path: Path, mode: str = "steps") -> None:
        """Load a session file (off the UI thread) and show it read-only on ``mode``."""
        try:
            loaded = load_session(path)
        except SiaError as exc:
            self.call_from_thread(
                self.notify,
                visible(str(exc)),
                title="Cannot open session",
                severity="error",
                markup=False,
            )
            return
        self.call_from_thread(self.install_session, loaded, mode)

    @work(exclusive=True, group="engine")
    async def install_session(self, loaded: LoadedSession, mode: str = "steps") -> None:
        """Replace the live engine (closing it) by the recorded run; show ``mode``."""
        if self.engine is not None:
            await self.engine.aclose()
        self.session = loaded
        self.engine = ReadOnlyEngine(loaded)
        await self.switch_mode(mode)
        self.post_message(RunUpdated())
        for warning in loaded.warnings:
            self.notify(visible(warning), title="Session warning", severity="warning", markup=False)

    # -- save --------------------------------------------------------------------------------
    def _save_options(self) -> ClientOptions:
        # A loaded session's options are placeholders already; save it with neutral ones.
        return ClientOptions() if self.read_only else self.options

    def action_save_session(self) -> None:
        """Preview the redactions, then save the current run where the user says."""
        run = self.engine.run if self.engine is not None else None
        if run is None:
            self.notify("Nothing to save yet: connect to an agent first.", severity="warning")
            return
        self._prepare_save(_snapshot(run))

    @work(thread=True, exclusive=True, group="session-save")
    def _prepare_save(self, run: Run) -> None:
        try:
            hits = preview_redactions(
                run, self._save_options(), self.secret_values, self.secret_headers
            )
        except SiaError as exc:
            self.call_from_thread(
                self.notify, visible(str(exc)), title="Cannot save", severity="error", markup=False
            )
            return
        self.call_from_thread(self._show_preview, run, hits)

    def _show_preview(self, run: Run, hits: list[RedactionHit]) -> None:
        screen = RedactionPreviewScreen(hits, default_session_path(run))
        self.push_screen(screen, partial(self._preview_answered, run, screen))

    def _preview_answered(self, run: Run, screen: RedactionPreviewScreen, yes: bool | None) -> None:
        if yes:
            self._write(run, screen.destination)
        else:
            self.notify("Not saved.")

    @work(thread=True, group="session-save")
    def _write(self, run: Run, destination: str) -> None:
        try:
            saved = write_session(
                run,
                self._save_options(),
                Path(destination).expanduser(),
                secret_values=self.secret_values,
                secret_headers=self.secret_headers,
            )
        except SiaError as exc:
            self.call_from_thread(
                self.notify, visible(str(exc)), title="Cannot save", severity="error", markup=False
            )
            return
        self.call_from_thread(
            self.notify,
            visible(
                f"Saved {saved.path} ({saved.size:,} bytes, {len(saved.redactions)} redactions)"
            ),
            title="Session saved",
            markup=False,
        )

    # -- autosave ----------------------------------------------------------------------------
    def maybe_autosave(self) -> None:
        """Autosave the run into the history once it has finished (never in snapshot mode)."""
        run = self.engine.run if self.engine is not None else None
        if run is None or self.snapshot_mode or self.read_only or not run.finished:
            return
        key = (id(run), len(run.exchanges), tuple(s.status.value for s in run.steps))
        if key in self._autosaved:
            return
        self._autosaved.add(key)
        self._autosave(_snapshot(run))

    @work(thread=True, group="autosave")
    def _autosave(self, run: Run) -> None:
        try:
            autosave(
                run,
                self.options,
                secret_values=self.secret_values,
                secret_headers=self.secret_headers,
            )
        except Exception as exc:  # noqa: BLE001 - a failed autosave is a notice, never a crash
            self.call_from_thread(
                self.notify,
                visible(f"{type(exc).__name__}: {exc}"),
                title="Autosave failed",
                severity="warning",
                markup=False,
            )
            return
        self.call_from_thread(self.post_message, RunUpdated())

    # -- secret values -----------------------------------------------------------------------
    def add_secret_values(self, values: Iterable[str]) -> None:
        """Mark values secret: redacted on save, masked on screen from now on."""
        for value in values:
            if value and value not in self.secret_values:
                self.secret_values.append(value)
        set_marked_values(self.secret_values)
        self.post_message(RunUpdated())

    def action_mark_secret(self) -> None:
        """Ask for a value to treat as secret."""
        self.push_screen(
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
            self.notify("Value marked secret: masked on screen and redacted when saved.")
