"""Command palette entries, each with a category prefix (``step: run next``)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand

if TYPE_CHECKING:
    from sia_tui.tui.app import SiaApp

_MODES = (
    ("overview", "the Agent Card and skill picker"),
    ("steps", "the eleven steps and their evidence"),
    ("digests", "the three-way digest inspector"),
    ("document", "the Skill Interface Document browser"),
    ("invoke", "the argument editor"),
    ("results", "the result and supporting records"),
    ("history", "the autosaved runs (open one read-only, delete)"),
    ("compose", "the composition check and interface diff"),
    ("probe", "deliberately wrong requests, each graded against its rule"),
)


def system_commands(app: SiaApp, inherited: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
    """The app's commands, then Textual's own (minus its theme picker, replaced below)."""
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
        "session: mark value secret",
        "Mask a value on screen and redact it from saved sessions",
        app.action_mark_secret,
    )
    yield SystemCommand(
        "arguments: reset to skeleton",
        "Replace the argument text by the input schema's skeleton (f3)",
        partial(reset_arguments, app),
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
        partial(_on_digests, app, "copy_canonical"),
    )
    for mode, help_text in _MODES:
        yield SystemCommand(f"mode: {mode}", f"Show {help_text}", partial(app.switch_mode, mode))
    for name in sorted(app.available_themes):
        if name.startswith("sia-") or name in ("textual-dark", "textual-light"):
            yield SystemCommand(
                f"theme: {name}", "Switch theme (remembered)", partial(setattr, app, "theme", name)
            )
    for command in inherited:
        if command.title.lower() not in ("theme", "change theme"):
            yield command


def copy_digest(app: SiaApp, which: str) -> None:
    """Copy one of the three interface digests to the clipboard."""
    run = app.current_run
    value = getattr(run.digests, which) if run is not None else None
    if value is None:
        app.notify(f"No {which} digest yet.", severity="warning")
        return
    app.copy_to_clipboard(value)
    app.notify(f"Copied the {which} digest.", markup=False)


def _on_digests(app: SiaApp, action: str) -> None:
    """Run a Digests-screen action from the palette (switching there first)."""
    from sia_tui.tui.screens.digests import DigestsScreen

    if not isinstance(app.screen, DigestsScreen):
        app.notify("Open the Digests screen (3) and select a row first.", severity="warning")
        return
    app.screen.action_copy_canonical()


def reset_arguments(app: SiaApp) -> None:
    """Put the input schema's skeleton in the editor (switching to the Invoke screen)."""
    from sia_tui.tui.screens.invoke import InvokeScreen

    def reset() -> None:
        if isinstance(app.screen, InvokeScreen):
            app.screen.action_reset()

    if isinstance(app.screen, InvokeScreen):
        reset()
    else:
        app.switch_mode("invoke")
        app.call_later(reset)
