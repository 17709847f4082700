"""Command palette entries, each with a category prefix (``step: run next``).

The app's own commands are listed here; each mode of the running app adds its ``mode: …``
command and its screen's commands (``ModeSpec.commands``), so a subclass's extra modes
(plugfest mode's Matrix) are in its palette too. No screen is imported: a screen's command
runs its ``action_<name>`` by name on the screen showing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual.app import SystemCommand

from sia_tui.tui.host import SiaHost

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from sia_tui.tui.modes import ModeSpec, ScreenCommand

#: Textual's own commands that sia-tui replaces (its theme picker, its screenshot, which
#: fails when the download folder is missing).
_REPLACED = ("theme", "change theme", "screenshot")


class PaletteHost(SiaHost, Protocol):
    """The app as the palette sees it: the screens' view, its actions, Textual's calls."""

    MODE_SPECS: ClassVar[tuple[ModeSpec, ...]]
    """The running app's modes (a subclass may add some)."""

    @property
    def screen(self) -> Screen[object]: ...
    @property
    def available_themes(self) -> Mapping[str, object]: ...
    def switch_mode(self, mode: str) -> Awaitable[object]: ...
    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...
    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...
    def notify(self, message: str, *, severity: SeverityLevel = "information") -> None: ...
    def action_run_next(self) -> None: ...
    def action_restart(self) -> None: ...
    def action_cancel_task(self) -> None: ...
    def action_connect(self) -> None: ...
    def action_mark_secret(self) -> None: ...
    def action_export_har(self) -> None: ...
    def action_write_last_copy(self) -> None: ...
    def action_screenshot_to_file(self) -> None: ...
    def action_show_invocation(self, step: int) -> None: ...


def system_commands(
    app: PaletteHost, inherited: Iterable[SystemCommand]
) -> Iterable[SystemCommand]:
    """The app's commands, then Textual's own (minus the ones replaced here)."""
    yield SystemCommand("step: run next", "Run the next step (n)", app.action_run_next)
    yield SystemCommand("step: run all", "Run every remaining step (r)", app.action_run_all)
    yield SystemCommand(
        "step: restart", "Start from step 1, re-fetching the card (R)", app.action_restart
    )
    yield SystemCommand(
        "task: cancel", "Cancel the running task when cancellable", app.action_cancel_task
    )
    yield SystemCommand(
        "connect: open target", "Point the debugger at another agent", app.action_connect
    )
    yield SystemCommand(
        "session: save",
        "Save this run as a redacted session file (ctrl+s)",
        app.action_save_session,
    )
    yield SystemCommand(
        "session: export HAR",
        "Write every exchange as HAR 1.2, redacted, in the download folder (f9)",
        app.action_export_har,
    )
    if app.has_live_run:
        yield SystemCommand(
            "session: back to the live run",
            "Leave the recorded run; the live one comes back unchanged (esc)",
            app.action_back_to_live,
        )
    if app.shown_invocation is not None:
        yield SystemCommand(
            "invocation: show the previous",
            "Show the run's earlier invocation, with its own arguments and verdict ([)",
            partial(app.action_show_invocation, -1),
        )
        yield SystemCommand(
            "invocation: show the next",
            "Show the run's later invocation, up to the latest (])",
            partial(app.action_show_invocation, 1),
        )
    yield SystemCommand(
        "session: mark value secret",
        "Mask a value on screen and redact it from saved sessions",
        app.action_mark_secret,
    )
    for which in ("advertised", "returned", "computed"):
        yield SystemCommand(
            f"digest: copy {which}",
            f"Copy the {which} interface digest",
            partial(copy_digest, app, which),
        )
    for spec in app.MODE_SPECS:
        for action in spec.commands:
            yield SystemCommand(
                action.title, action.help, partial(run_screen_command, app, spec, action)
            )
    yield SystemCommand(
        "clipboard: write the last copy to a file",
        "When the terminal ignored the clipboard (OSC 52): the text in the download folder",
        app.action_write_last_copy,
    )
    yield SystemCommand(
        "app: screenshot",
        "Save an SVG of the screen in the download folder (f12; secrets stay masked)",
        app.action_screenshot_to_file,
    )
    for spec in app.MODE_SPECS:
        yield SystemCommand(
            f"mode: {spec.name}",
            f"Show {spec.about} ({spec.key})",
            partial(app.switch_mode, spec.name),
        )
    for name in sorted(app.available_themes):
        if name.startswith("sia-") or name in ("textual-dark", "textual-light"):
            yield SystemCommand(
                f"theme: {name}", "Switch theme (remembered)", partial(setattr, app, "theme", name)
            )
    for command in inherited:
        if command.title.lower() not in _REPLACED:
            yield command


def copy_digest(app: PaletteHost, which: str) -> None:
    """Copy one of the three interface digests to the clipboard."""
    run = app.current_run
    value = getattr(run.digests, which) if run is not None else None
    if value is None:
        app.notify(f"No {which} digest yet.", severity="warning")
        return
    app.copy_text(value, f"the {which} digest")


def run_screen_command(app: PaletteHost, spec: ModeSpec, command: ScreenCommand) -> None:
    """Run a screen's action from the palette: on that screen, switching to it first unless
    the action needs something chosen there (then the user is told where to go)."""

    def run() -> None:
        if _showing(app, spec):
            getattr(app.screen, f"action_{command.action}")(*command.arguments)

    if _showing(app, spec):
        run()
    elif command.requires:
        app.notify(
            f"Open the {spec.title} screen ({spec.key}) and {command.requires} first.",
            severity="warning",
        )
    else:
        shown = app.switch_mode(spec.name)

        async def run_when_shown() -> None:
            # A screen shown for the first time is built first: its action needs its widgets.
            await shown
            app.call_after_refresh(run)

        app.call_later(run_when_shown)


def _showing(app: PaletteHost, spec: ModeSpec) -> bool:
    """Whether the screen on top is ``spec``'s (not a dialog over it, not another mode)."""
    return getattr(app.screen, "mode_name", None) == spec.name
