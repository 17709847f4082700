"""Read-only sessions: an engine over a recorded run that shows everything and never sends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sia_tui.core.errors import SiaError

if TYPE_CHECKING:
    from sia_tui.core.a2a import StreamEvent, Task
    from sia_tui.core.engine import ConsoleReply, ConsoleRequest, TaskListing
    from sia_tui.core.run import Reply, Run, StepResult
    from sia_tui.core.session import LoadedSession

#: Session files are recognised by this text near their start (``"format": "sia-session/6"``).
_SESSION_MARK = b"sia-session/"
#: How much of a file is read to decide whether it is a session (the format member is first).
_SNIFF_BYTES = 64 * 1024


class ReadOnlySessionError(SiaError):
    """Something tried to send while a recorded session is open (it never reaches the network)."""


def read_only_notice(session: LoadedSession) -> str:
    """What the user is told when an action would send."""
    return f"read-only session: use `sia-tui rerun {session.path or 'FILE'}`"


def looks_like_session(path: str) -> bool:
    """True for a local file that declares the ``sia-session`` format (or is named like one)."""
    candidate = Path(path)
    if "://" in path or not candidate.is_file():
        return False
    if candidate.name.endswith(".session.json"):
        return True
    try:
        with candidate.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError:
        return False
    return b'"format"' in head and _SESSION_MARK in head


class ReadOnlyEngine:
    """Satisfies the TUI's ``Engine`` protocol from recorded bytes: no client, no socket.

    Every sending call raises :class:`ReadOnlySessionError`; the app refuses those actions
    with a notice before they get here, so this is the second line of defence.
    """

    def __init__(self, session: LoadedSession) -> None:
        self.session = session
        """The loaded file."""
        self.run: Run = session.run
        """The recorded run every screen renders."""

    def _refuse(self) -> ReadOnlySessionError:
        return ReadOnlySessionError(read_only_notice(self.session))

    async def step(self) -> StepResult | None:
        raise self._refuse()

    async def run_all(self) -> Run:
        raise self._refuse()

    async def run_until(self, last: int) -> Run:
        raise self._refuse()

    async def restart(self) -> None:
        raise self._refuse()

    def set_arguments(self, arguments: Any, *, send_anyway: bool = False) -> None:
        raise self._refuse()

    def consent_to_send(self) -> None:
        raise self._refuse()

    def reply(self, reply: Reply) -> None:
        raise self._refuse()

    def select_skill(self, skill_id: str) -> None:
        raise self._refuse()

    def set_mode(self, mode: str | None) -> None:
        """Choosing a mode sends nothing; ignored."""

    def set_push(self, push: str | None) -> None:
        """Choosing push sends nothing; ignored."""

    async def list_tasks(self, page_token: str | None = None) -> TaskListing:
        raise self._refuse()

    async def cancel(self) -> Task | None:
        raise self._refuse()

    async def console(
        self,
        request: ConsoleRequest,
        on_event: Callable[[StreamEvent], None] | None = None,
        *,
        consent: bool = False,
    ) -> ConsoleReply:
        raise self._refuse()

    async def aclose(self) -> None:
        """Nothing to close: no client was ever built."""
