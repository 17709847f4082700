"""One header line: target, A2A dialect badge, selected skill."""

from __future__ import annotations

import re

from textual.content import Content
from textual.widgets import Static

from sia_tui.core.engine import Run
from sia_tui.tui.display import visible

_PORT = re.compile(r"(127\.0\.0\.1|localhost):\d+")


def stable_location(location: str, snapshot_mode: bool) -> str:
    """In snapshot mode the ephemeral port is hidden, so screenshots do not change per run."""
    return _PORT.sub(r"\1:PORT", location) if snapshot_mode else location


class TargetHeader(Static):
    """Shows what the debugger is pointed at; updated whenever the run changes."""

    DEFAULT_CSS = """
    TargetHeader {
        height: 1; background: $panel; color: $foreground; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    def show(
        self, run: Run | None, *, snapshot_mode: bool = False, read_only: bool = False
    ) -> None:
        """Redraw from ``run`` (None: not connected); ``read_only`` for a recorded session."""
        if run is None:
            self.update(Content.from_markup("[b]sia-tui[/b]  not connected: press [b]c[/b]"))
            return
        location = stable_location(run.card_url or run.target.location, snapshot_mode)
        skill = run.skill_id or run.target.skill_id
        # The location goes last: when the line is too long, it is what gets cut.
        parts = [
            Content.styled("sia-tui ", "bold"),
            *(
                [Content.styled("session (read-only) ", "bold reverse $warning")]
                if read_only
                else []
            ),
            Content("skill: "),
            Content.styled(visible(skill or "(none selected)", multiline=False), "bold"),
        ]
        if run.interface is not None:
            badge = visible(run.interface.badge, multiline=False)
            parts.append(Content.styled(f"  [{badge}]", "bold $accent"))
        if run.card is not None:
            parts.append(Content(f"  card {run.card.card_dialect}"))
        if run.from_cache:
            # RULES CP12: say that describe_skill was not called for this document.
            parts.append(Content.styled("  document from cache", "bold $warning"))
        parts.append(Content("  "))  # always a gap, with or without a card
        parts.append(Content.styled(visible(location, multiline=False), "$text-primary"))
        self.update(Content("").join(parts))
