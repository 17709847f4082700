"""Plugfest mode: the sia-tui app opened on the Matrix screen (``sia-tui matrix PLUGFEST``).

The debugger's own screens (Steps, Digests, Results...) show a matrix cell's run read-only;
Esc comes back to the matrix. Kept apart from ``app.py``: the app gains one mode and one key.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding, BindingType

from sia_tui.core.redaction import Redactor
from sia_tui.tui.app import SiaApp
from sia_tui.tui.modes import ModeSpec, mode_bindings, mode_factories
from sia_tui.tui.screens.matrix import MatrixLaunch
from sia_tui.tui.storage import UserDirs

if TYPE_CHECKING:
    from sia_tui.core.matrix import Plugfest

MATRIX_MODE = "matrix"
#: The Matrix screen: plugfest mode's one extra row of the mode table.
MATRIX_SPEC = ModeSpec(
    name=MATRIX_MODE,
    key="m",
    title="Matrix",
    short="Matrix",
    about="the plugfest: agents × skills × bindings × modes",
    screen="matrix:MatrixMode",
)


class MatrixApp(SiaApp):
    """``SiaApp`` with the Matrix screen as its first mode."""

    MODE_SPECS: ClassVar[tuple[ModeSpec, ...]] = (MATRIX_SPEC, *SiaApp.MODE_SPECS)
    MODES: ClassVar[dict[str, Any]] = mode_factories(MODE_SPECS)
    BINDINGS: ClassVar[list[BindingType]] = [
        *mode_bindings((MATRIX_SPEC,)),
        *SiaApp.BINDINGS,
        Binding("escape", "back_to_matrix", "Matrix", id="matrix.back"),
    ]

    def __init__(self, launch: MatrixLaunch, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.matrix_launch = launch
        """The plugfest file, where its sessions go, and the runner's limits."""

    def crash_redactors(self) -> list[Redactor]:
        # Each agent's credentials come from the environment (plugfest_agents.py).
        return super().crash_redactors() + [
            Redactor.from_options(
                agent.options,
                location=agent.card,
                secret_values=agent.secret_values,
                secret_headers=agent.secret_headers,
            )
            for agent in self.matrix_launch.plugfest.agents
        ]

    def open_first_screen(self) -> None:
        self.switch_mode(MATRIX_MODE)

    def action_back_to_matrix(self) -> None:
        """Esc: back to the matrix from a cell's run."""
        self.switch_mode(MATRIX_MODE)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back_to_matrix":  # the matrix itself has nothing to go back to
            return self.current_mode != MATRIX_MODE
        return super().check_action(action, parameters)


def default_save_dir(data_dir: Path, plugfest: Plugfest) -> Path:
    """``<data dir>/matrix/<UTC time>-<file name>``: one folder per matrix run."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return data_dir / "matrix" / f"{stamp}-{plugfest.source.stem}"


def run_matrix_app(
    plugfest: Plugfest,
    save_dir: Path | None,
    *,
    jobs: int | None,
    deadline: float | None,
    allow_execute: bool = False,
    trace: bool = True,
    tracestate: str | None = None,
    otlp_endpoint: str | None = None,
) -> int:
    """Open the app on the Matrix screen (``sia-tui matrix`` without output flags)."""
    folder = save_dir or default_save_dir(UserDirs.default().data, plugfest)
    launch = MatrixLaunch(
        plugfest, folder, jobs, deadline, allow_execute, trace, tracestate, otlp_endpoint
    )
    app = MatrixApp(launch)
    app.run()
    return app.return_code or 0
