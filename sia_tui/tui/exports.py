"""What leaves the app besides sessions: the clipboard (OSC 52), its file fallback, and
screenshots. Files go to the download folder, created when missing; a failure names the path.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import platformdirs

from sia_tui.core.atomic_file import atomic_write

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

#: What a person is told about the clipboard: the app cannot know whether it arrived.
CLIPBOARD_NOTE = (
    "Sent with OSC 52, the terminal clipboard escape: terminals and tmux may ignore it "
    "(tmux: set -g set-clipboard on). Press w to write it to a file instead."
)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def export_dir() -> Path:
    """Where screenshots and copied text are written: the user's download folder."""
    return Path(platformdirs.user_downloads_dir())


def _stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


@runtime_checkable
class RevealsSecrets(Protocol):
    """A screen that can show secrets in clear (``s`` on Steps)."""

    reveal_secrets: bool


class ExportsHost(Protocol):
    """What ``Exports`` asks of the app: Textual's clipboard, screenshot and toast."""

    @property
    def screen(self) -> object: ...
    def copy_to_clipboard(self, text: str) -> None: ...
    def save_screenshot(self, filename: str | None = None, path: str | None = None) -> str: ...
    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...
    def notify(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information"
    ) -> None: ...


class Exports:
    """Clipboard and screenshot actions, a service of ``SiaApp``."""

    def __init__(self, app: ExportsHost) -> None:
        self.app = app
        self.last_copy: tuple[str, str] | None = None
        """(what, text) of the last copy, for the file fallback."""

    def copy_text(self, text: str, what: str) -> None:
        """Put ``text`` on the clipboard (OSC 52) and say how it was sent."""
        self.app.copy_to_clipboard(text)
        self.last_copy = (what, text)
        size = len(text.encode("utf-8"))
        self.app.notify(f"{CLIPBOARD_NOTE}", title=f"Copied {what} ({size:,} bytes)")

    def write_last_copy(self) -> None:
        """Write the last copied text to a file in the download folder (the fallback)."""
        if self.last_copy is None:
            self.app.notify("Nothing copied yet: press c or C first.", severity="warning")
            return
        what, text = self.last_copy
        self.write_export(what, text, "txt")

    def write_export(self, what: str, text: str, suffix: str) -> None:
        """Write ``text`` to a new file named after ``what`` in the download folder."""
        name = f"sia-tui-{_UNSAFE.sub('-', what).strip('-')[:40]}-{_stamp()}.{suffix}"
        path = self._export_path(name)
        if path is None:
            return
        try:
            atomic_write(path, text)
        except OSError as exc:
            self._cannot_write(path, exc)
            return
        self.app.notify(str(path), title=f"Wrote {what}")

    def screenshot_to_file(self) -> None:
        """Save an SVG of the screen in the download folder. Secrets stay masked: a screen
        showing them in clear (``s`` on Steps) is drawn masked for the picture, then shown
        as it was."""
        screen = self.app.screen
        if isinstance(screen, RevealsSecrets) and screen.reveal_secrets:
            screen.reveal_secrets = False
            self.app.call_after_refresh(self._save_screenshot, screen)
        else:
            self._save_screenshot(None)

    def _save_screenshot(self, revealing: RevealsSecrets | None) -> None:
        try:
            path = self._export_path(f"sia-tui-{_stamp()}.svg")
            if path is None:
                return
            try:
                self.app.save_screenshot(path.name, str(path.parent))
            except OSError as exc:
                self._cannot_write(path, exc)
                return
        finally:
            if revealing is not None:
                revealing.reveal_secrets = True
        masked = " (secrets masked)" if revealing is not None else ""
        self.app.notify(str(path), title=f"Screenshot saved{masked}")

    def _export_path(self, name: str) -> Path | None:
        """``name`` in the download folder, creating the folder; None (and a notice naming
        the folder) when it cannot be created."""
        folder = export_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._cannot_write(folder, exc)
            return None
        return folder / name

    def _cannot_write(self, path: Path, exc: OSError) -> None:
        self.app.notify(
            f"Cannot write {path}: {exc.strerror or exc}",
            title="Not saved",
            severity="error",
        )
