"""The app as its screens see it: ``SiaHost``, a Protocol, so no screen imports ``app.py``.

``SiaApp`` (``app.py``, with the services it owns: ``engine_actions.py``,
``session_actions.py``, ``connection.py``...) imports the screens it opens, so a screen that
imported the app back would close a loop. A screen reads the app through ``RunScreen.sia``
typed as this Protocol instead: each member is a state the app holds or a one-line call of
the service that does the work, so no screen reaches a service. The palette's
``PaletteHost`` extends it, so mypy checks ``SiaApp`` against both where the app hands
itself to the palette. Textual's own ``App`` methods (``notify``, ``switch_mode``...) are
read from ``Screen.app``, not from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from sia_tui.core.a2a import ClientOptions, StreamEvent, Task
    from sia_tui.core.engine import ConsoleReply, ConsoleRequest
    from sia_tui.core.probe import ProbeReport
    from sia_tui.core.run import Invocation, Reply, Run
    from sia_tui.core.session import LoadedSession
    from sia_tui.tui.display import DisplayPolicy
    from sia_tui.tui.engine_port import Engine, EngineFactory
    from sia_tui.tui.storage import UserDirs

#: What the user is told when n, r or invoke would interrupt running steps.
BUSY_NOTICE = "steps are running; wait or press R to restart"


@dataclass
class ConsoleState:
    """The plain A2A console's last message: in flight (events so far) or answered."""

    skill_id: str | None = None
    """The skill the console works on (chosen on the Overview or in the console)."""
    sending: bool = False
    events: list[StreamEvent] = field(default_factory=list)
    reply: ConsoleReply | None = None


class SiaHost(Protocol):
    """What the screens read and ask of the sia-tui app."""

    # -- what is shown ----------------------------------------------------------------------
    display_policy: DisplayPolicy
    """How every screen shows text (secrets masked)."""
    engine: Engine | None
    """The engine of the run on screen (live, or a recorded session's)."""
    engine_factory: EngineFactory
    """Builds an engine for another target (the Compose screen's second side)."""
    options: ClientOptions
    """The client settings the current target was connected with."""
    session: LoadedSession | None
    """The recorded session on screen, or None for a live target."""
    dirs: UserDirs
    """Where argument edits and settings live."""
    initial_arguments: tuple[str, str] | None
    """(file, text) of ``open --args FILE``: the editor starts with it, once."""
    console_state: ConsoleState
    """The plain A2A console's state."""
    redraws_requested: int
    """How many times a change to what the screens show was announced (each one a redraw)."""

    @property
    def current_run(self) -> Run | None:
        """The run on screen, or None before a target is connected."""

    @property
    def shown_invocation(self) -> Invocation | None:
        """The invocation on screen when the run holds several (each has its verdict)."""

    @property
    def read_only(self) -> bool:
        """True while a recorded session is shown: nothing may be sent."""

    @property
    def has_live_run(self) -> bool:
        """True while a recorded run is shown and the live one waits aside."""

    @property
    def engine_busy(self) -> bool:
        """True while a step, run all, invoke or restart is running."""

    # -- what the screens ask ----------------------------------------------------------------
    def refuse_if_read_only(self) -> bool:
        """Tell the user and return True when the run on screen is recorded."""

    def refuse_if_busy(self) -> bool:
        """Tell the user and return True while steps are running."""

    def invoke(self, arguments: Any, send_anyway: bool) -> None:
        """Send the arguments: steps 7-11."""

    def choose_skill(self, skill_id: str) -> bool:
        """Make ``skill_id`` the skill every screen works on (False: it is not, and the
        user was told why)."""

    def action_run_all(self) -> None:
        """Run every remaining step."""

    def open_console(self, skill_id: str | None = None) -> None:
        """Show the plain A2A console, working on ``skill_id``."""

    def send_console(self, request: ConsoleRequest) -> None:
        """Send one plain A2A message."""

    def reply_to_task(self, reply: Reply) -> None:
        """Answer the task's open question on the same taskId, and go on receiving."""

    def open_session_file(self, path: Path, mode: str = "steps") -> object:
        """Show a session file read-only on ``mode`` (loaded in a worker, returned)."""

    def open_listed_task(self, task: Task) -> object:
        """Show a task the agent listed (ListTasks) read-only on Results."""

    def action_back_to_live(self) -> None:
        """Leave the recorded run for the live one."""

    def action_save_session(self) -> None:
        """Save the run on screen (with the redaction preview)."""

    def save_probe_run(self, report: ProbeReport) -> None:
        """Save a probe run with its ``probe`` member."""

    def autosave_probe_run(self, report: ProbeReport) -> None:
        """Put a finished probe run into the history."""

    def copy_text(self, text: str, what: str) -> None:
        """Put ``text`` on the clipboard and say how it was sent."""
