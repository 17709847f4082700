"""One header line: target, A2A dialect badge, selected skill."""

from __future__ import annotations

from textual.content import Content

from sia_tui.core.redaction import strip_credentials
from sia_tui.core.run import Invocation, Run
from sia_tui.tui.display import DisplayPolicy
from sia_tui.tui.widgets.literal import LiteralStatic


class TargetHeader(LiteralStatic):
    """Shows what the debugger is pointed at; updated whenever the run changes."""

    DEFAULT_CSS = """
    TargetHeader {
        height: 1; background: $panel; color: $foreground; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    def show(
        self,
        run: Run | None,
        policy: DisplayPolicy,
        *,
        read_only: bool = False,
        live_waits: bool = False,
        invocation: Invocation | None = None,
    ) -> None:
        """Redraw from ``run`` (None: not connected); ``read_only`` for a recorded session,
        ``live_waits`` when Esc goes back to the live run, ``invocation`` the one shown when
        the run holds several."""
        if run is None:
            self.update(Content.from_markup("[b]sia-tui[/b]  not connected: press [b]c[/b]"))
            return
        # A password in the card URL never reaches the screen (nor a screenshot of it).
        location = strip_credentials(run.card_url or run.target.location)
        skill = run.skill_id or run.target.skill_id
        # The location goes last: when the line is too long, it is what gets cut.
        parts = [
            Content.styled("sia-tui ", "bold"),
            *(
                [
                    Content.styled(
                        "session (read-only, esc: live run) "
                        if live_waits
                        else "session (read-only) ",
                        "bold reverse $warning",
                    )
                ]
                if read_only
                else []
            ),
            Content("skill: "),
            policy.literal(skill or "(none selected)", style="bold"),
        ]
        if run.interface is not None:
            parts.append(policy.literal(f"  [{run.interface.badge}]", style="bold $accent"))
        if run.card is not None:
            parts.append(Content(f"  card {run.card.card_dialect}"))
        if invocation is not None:
            # Each invocation has its own verdict: say whose this screen shows.
            latest = invocation.number == invocation.total
            parts.append(
                Content.styled(
                    f"  {invocation.label}", "bold" if latest else "bold reverse $accent"
                )
            )
        if run.from_cache:
            # RULES CP12: say that describe_skill was not called for this document.
            parts.append(Content.styled("  document from cache", "bold $warning"))
        parts.append(Content("  "))  # always a gap, with or without a card
        parts.append(policy.literal(location, style="$text-primary"))
        self.update(Content("").join(parts))
