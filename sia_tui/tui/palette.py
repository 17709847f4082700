"""Command palette entries, each with a category prefix (``step: run next``)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand

from sia_tui.tui.modes import MODE_SPECS

if TYPE_CHECKING:
    from sia_tui.tui.app import SiaApp

#: Textual's own commands that sia-tui replaces (its theme picker, its screenshot, which
#: fails when the download folder is missing).
_REPLACED = ("theme", "change theme", "screenshot")


def system_commands(app: SiaApp, inherited: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
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
    if app.has_live_run:
        yield SystemCommand(
            "session: back to the live run",
            "Leave the recorded run; the live one comes back unchanged (esc)",
            app.action_back_to_live,
        )
    yield SystemCommand(
        "session: mark value secret",
        "Mask a value on screen and redact it from saved sessions",
        app.action_mark_secret,
    )
    yield SystemCommand(
        "arguments: reset to skeleton",
        "Replace the argument text by the input schema's skeleton (f3)",
        partial(on_invoke, app, "reset"),
    )
    yield SystemCommand(
        "arguments: use the example",
        "Replace the argument text by the schema's or the card skill's example (f4)",
        partial(on_invoke, app, "use_example"),
    )
    for which in ("advertised", "returned", "computed"):
        yield SystemCommand(
            f"digest: copy {which}",
            f"Copy the {which} interface digest",
            partial(copy_digest, app, which),
        )
    yield SystemCommand(
        "digest: copy canonical text",
        "Copy the canonical JCS text of the selected value (Digests screen)",
        partial(_copy_canonical, app),
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
    for spec in MODE_SPECS:
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


def copy_digest(app: SiaApp, which: str) -> None:
    """Copy one of the three interface digests to the clipboard."""
    run = app.current_run
    value = getattr(run.digests, which) if run is not None else None
    if value is None:
        app.notify(f"No {which} digest yet.", severity="warning")
        return
    app.copy_text(value, f"the {which} digest")


def _copy_canonical(app: SiaApp) -> None:
    """Copy the canonical text of the Digests screen's selected value, when it is shown."""
    from sia_tui.tui.screens.digests import DigestsScreen

    if not isinstance(app.screen, DigestsScreen):
        app.notify("Open the Digests screen (3) and select a row first.", severity="warning")
        return
    app.screen.action_copy_canonical()


def on_invoke(app: SiaApp, action: str) -> None:
    """Run an argument-editor action (``reset``, ``use_example``), switching to Invoke first."""
    from sia_tui.tui.screens.invoke import InvokeScreen

    def run() -> None:
        if isinstance(app.screen, InvokeScreen):
            getattr(app.screen, f"action_{action}")()

    if isinstance(app.screen, InvokeScreen):
        run()
    else:
        app.switch_mode("invoke")
        app.call_later(run)
