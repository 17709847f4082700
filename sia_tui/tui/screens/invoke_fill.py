"""Mode 5's fills: the argument editor refilled from the schema's skeleton (f3), the example
(f4) or a JSON file (f2), each one edit that ctrl+z undoes; and the draft saved for the
agent and skill put back when the screen opens (one that cannot be is set aside)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work

from sia_tui.core.errors import SiaError
from sia_tui.core.output import terminal_json
from sia_tui.tui.screens.invoke_check import InvokeChecks
from sia_tui.tui.storage import BrokenDraft
from sia_tui.tui.widgets.argument_editor import ArgumentEditor


class InvokeFills(InvokeChecks):
    """The f2, f3 and f4 actions of ``InvokeScreen``, from the schema and example it shows."""

    def __init__(self) -> None:
        super().__init__()
        self._schema: Any = None
        """Its input schema (``Run.answers.input_schema``), for the skeleton."""
        self._example: Any = None
        """The example arguments (``Run.answers.example_arguments``), when there is one."""

    @staticmethod
    def _skeleton(schema: Any) -> str:
        from sia_tui.core.schemas import skeleton_for

        return terminal_json(skeleton_for(schema))

    def _restore_draft(self, editor: ArgumentEditor) -> bool:
        """Put the draft saved for this agent and skill in the editor; False when there is
        none, or when it cannot be read or put back. A draft never traps the user: one that
        fails (any exception, as a draft that once crashed the editor might) is set aside
        beside itself and a notice says where, so the editor opens with the example."""
        if self._edit_key is None:
            return False
        try:
            text = self.sia.dirs.load_edit(*self._edit_key)
            if text is None:
                return False
            editor.load_text(text)
            return True
        except Exception as exc:  # noqa: BLE001 - whatever it is, the draft is set aside
            self._set_draft_aside(exc)
            return False

    def _set_draft_aside(self, failure: Exception) -> None:
        assert self._edit_key is not None
        why = failure.reason if isinstance(failure, BrokenDraft) else f"{failure!r}"
        try:
            aside = self.sia.dirs.set_aside_edit(*self._edit_key)
        except OSError as exc:
            where = f"it could not be set aside ({exc}); the next save replaces it"
        else:
            where = f"it was set aside as {aside}"
        self.notify(
            f"The saved draft of these arguments could not be restored ({why}); {where}. "
            "The editor starts with the example.",
            title="Draft set aside",
            severity="warning",
            timeout=20,
        )

    def _refuse_edit(self) -> bool:
        """Tell the user and return True when the editor cannot be refilled now."""
        if self.sia.read_only:
            self.notify(
                "read-only session: the recorded arguments stay as sent.", severity="warning"
            )
            return True
        if self._schema is None:
            self.notify(self._why_no_schema(), severity="warning")
            return True
        return False

    def action_reset(self) -> None:
        """Replace the text by the input schema's skeleton (ctrl+z undoes it)."""
        if not self._refuse_edit():
            self.query_one(ArgumentEditor).replace_all(self._skeleton(self._schema))

    def action_use_example(self) -> None:
        """Replace the text by the example arguments (the input schema's, else the card's);
        ctrl+z undoes it."""
        if self._refuse_edit():
            return
        if self._example is None:
            self.notify(
                "No example: the input schema declares none and the card's skill entry lists "
                "no JSON example.",
                severity="warning",
            )
            return
        self.query_one(ArgumentEditor).replace_all(terminal_json(self._example.value))
        if self._example.problem is not None:
            self.notify(
                f"Arguments from {self._example.source}, which fails the input schema "
                f"{self._example.problem}.",
                severity="warning",
            )
        else:
            self.notify(f"Arguments from {self._example.source}.")

    def action_load_file(self) -> None:
        """Pick a JSON file and put its text in the editor (ctrl+z brings the text back)."""
        if self._refuse_edit():
            return
        from sia_tui.tui.screens.file_picker import FilePickerScreen

        picker = FilePickerScreen("Load the arguments from a JSON file")
        self.app.push_screen(picker, self._picked)

    def _picked(self, path: Path | None) -> None:
        if path is not None:
            self._load_file(path)

    @work(thread=True, exclusive=True, group="load-arguments")
    def _load_file(self, path: Path) -> None:
        from sia_tui.core.jsonkit import read_json_text

        try:
            text = read_json_text(path)[1]
        except SiaError as exc:  # located: file:line:column
            self.app.call_from_thread(
                self.notify,
                f"{exc}. The editor is unchanged.",
                title="Not loaded",
                severity="error",
            )
            return
        self.app.call_from_thread(self._loaded, path, text)

    def _loaded(self, path: Path, text: str) -> None:
        self.query_one(ArgumentEditor).replace_all(text)
        self.notify(f"Arguments from {path} (ctrl+z brings the previous text back).")
