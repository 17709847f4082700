"""Plugfest mode: the sia-tui app opened on the Matrix screen (``sia-tui matrix PLUGFEST``).

The debugger's own screens (Steps, Digests, Results...) show a matrix cell's run read-only;
Esc comes back to the matrix. Kept apart from ``app.py``: the app gains one mode and one key.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from sia_tui.tui.app import SiaApp
from sia_tui.tui.screens.matrix import MatrixLaunch, MatrixMode

MATRIX_MODE = "matrix"


class MatrixApp(SiaApp):
    """``SiaApp`` with the Matrix screen as its first mode."""

    MODES: ClassVar[dict[str, Any]] = {**SiaApp.MODES, MATRIX_MODE: MatrixMode}
    BINDINGS: ClassVar[list[BindingType]] = [
        *SiaApp.BINDINGS,
        Binding("escape", "back_to_matrix", "Matrix", id="matrix.back"),
    ]

    def __init__(self, launch: MatrixLaunch, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.matrix_launch = launch
        """The plugfest file, where its sessions go, and the runner's limits."""

    def open_first_screen(self) -> None:
        self.switch_mode(MATRIX_MODE)

    def action_back_to_matrix(self) -> None:
        """Esc: back to the matrix from a cell's run."""
        self.switch_mode(MATRIX_MODE)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back_to_matrix":  # the matrix itself has nothing to go back to
            return self.current_mode != MATRIX_MODE
        return super().check_action(action, parameters)
