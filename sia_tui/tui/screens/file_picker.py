"""A keyboard-first file picker: type a path (completed as you type), or choose in the list.

Returns the chosen file's path, or None. The list shows the folder of the typed path,
folders first; Enter on a folder opens it. Nothing is read here but folder listings: the
caller reads the file (through the core, bounded).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, OptionList

from sia_tui.tui.widgets.literal import LiteralInput, LiteralOptionList, LiteralStatic, option

#: Entries listed at most: a folder of 100,000 files must not stall the dialog.
MAX_ENTRIES = 500


@dataclass(frozen=True)
class Entry:
    """One name in a folder listing."""

    name: str
    is_dir: bool

    @property
    def shown(self) -> str:
        return self.name + "/" if self.is_dir else self.name


def split_typed(typed: str, cwd: Path) -> tuple[Path, str]:
    """(the folder to list, the prefix of the name being typed) for a typed path."""
    path = Path(os.path.expanduser(typed)) if typed else Path()
    if not path.is_absolute():
        path = cwd / path
    if typed.endswith(os.sep) or typed in ("", "~"):
        return path, ""
    return path.parent, path.name


def list_folder(folder: Path, prefix: str = "") -> list[Entry]:
    """The folder's entries whose name starts with ``prefix``: folders first, then files,
    each by name; hidden ones only when the prefix starts with a dot. Unreadable: none."""
    entries: list[Entry] = []
    try:
        with os.scandir(folder) as scan:
            for item in scan:
                if not item.name.startswith(prefix):
                    continue
                if item.name.startswith(".") and not prefix.startswith("."):
                    continue
                try:
                    is_dir = item.is_dir()
                except OSError:
                    continue
                entries.append(Entry(item.name, is_dir))
                if len(entries) >= MAX_ENTRIES:
                    break
    except OSError:
        return []
    return sorted(entries, key=lambda e: (not e.is_dir, e.name.lower()))


class PathSuggester(Suggester):
    """Completes the name being typed with the first entry of its folder that starts so
    (``→`` or ``end`` accepts it, as in every Textual input)."""

    def __init__(self, cwd: Path) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.cwd = cwd

    async def get_suggestion(self, value: str) -> str | None:
        folder, prefix = split_typed(value, self.cwd)
        if not prefix:
            return None
        for entry in list_folder(folder, prefix):
            return value[: len(value) - len(prefix)] + entry.shown
        return None


class FilePickerScreen(ModalScreen[Path | None]):
    """Type or choose a file; Enter on a file returns it, Esc returns None."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        Binding("down", "to_list", "List", show=False, id="picker.list"),
    ]
    DEFAULT_CSS = """
    FilePickerScreen { align: center middle; }
    FilePickerScreen > Vertical {
        width: 90; max-width: 100%; height: 80%; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    FilePickerScreen #picker-help { color: $text-muted; }
    FilePickerScreen OptionList { height: 1fr; border: round $panel; }
    FilePickerScreen OptionList:focus { border: round $primary; }
    """

    def __init__(self, title: str, cwd: Path | None = None) -> None:
        super().__init__()
        self.title_text = title
        """What the file is for."""
        self.cwd = cwd or Path.cwd()
        """Where a relative path starts."""
        self.entries: list[Entry] = []
        """The entries listed, in the list's order."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield LiteralStatic(self.title_text, id="picker-title")
            yield LiteralStatic(
                "Type a path (→ completes), ↓ to the list; Enter opens a folder or loads a "
                "file; Esc cancels.",
                id="picker-help",
            )
            yield LiteralInput(
                placeholder="path (relative to the current folder)",
                id="picker-path",
                suggester=PathSuggester(self.cwd),
            )
            yield LiteralOptionList(id="picker-list")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._refill()

    def _refill(self) -> None:
        folder, prefix = split_typed(self.query_one(Input).value, self.cwd)
        self.entries = ([Entry("..", True)] if folder.parent != folder else []) + list_folder(
            folder, prefix
        )
        listing = self.query_one(OptionList)
        listing.clear_options()
        # File names are shown as they are: a name like "[red]x" is no markup.
        listing.add_options(option(Content(e.shown)) for e in self.entries)
        listing.border_title = Content(self._shown(folder) or "." + os.sep)

    @on(Input.Changed, "#picker-path")
    def _typed(self) -> None:
        self._refill()

    @on(Input.Submitted, "#picker-path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._open(split_typed(event.value, self.cwd))

    @on(OptionList.OptionSelected, "#picker-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        folder, _ = split_typed(self.query_one(Input).value, self.cwd)
        entry = self.entries[event.option_index]
        self._open((folder / entry.name, ""))

    def _open(self, where: tuple[Path, str]) -> None:
        folder, name = where
        path = (folder / name) if name else folder
        if path.is_dir():
            field = self.query_one(Input)
            field.value = self._shown(path)
            field.cursor_position = len(field.value)
            field.focus()
            return
        self.dismiss(path)

    def _shown(self, folder: Path) -> str:
        """A folder as typed: relative to the current folder when inside it ("" for it)."""
        folder = folder.resolve()
        try:
            relative = folder.relative_to(self.cwd.resolve())
        except ValueError:
            return str(folder) + os.sep
        return "" if relative == Path() else str(relative) + os.sep

    def action_to_list(self) -> None:
        """From the path field down into the list."""
        listing = self.query_one(OptionList)
        if self.query_one(Input).has_focus and listing.option_count:
            listing.focus()
            listing.highlighted = 0

    def action_cancel(self) -> None:
        """Close without a file."""
        self.dismiss(None)
