"""``PushLog`` (``Run.push``): what one invocation's push notifications showed.

The runtime side (the loopback receiver, registering the webhook) is the engine's
``engine/push.py``; every surface reads this record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sia_tui.core.a2a.push.receiver import Delivery

#: ``Target.push`` value that asks for sia-tui's own receiver on 127.0.0.1.
LOOPBACK = "loopback"


@dataclass
class PushLog:
    """What one invocation's push notifications showed."""

    #: "loopback" (sia-tui's own receiver records deliveries) or "external" (``--push-url``:
    #: deliveries go to a receiver the user runs, which sia-tui cannot see).
    receiver: str
    #: The webhook URL registered with the agent (None when none was).
    url: str | None = None
    #: Deliveries the loopback receiver recorded, in arrival order.
    deliveries: list[Delivery] = field(default_factory=list)
    #: Deliveries past ``MAX_PUSH_DELIVERIES``: counted, not kept.
    not_listed: int = 0
    #: Deliveries refused for a missing or wrong token (any local process can post to the
    #: loopback receiver): the first ``MAX_PUSH_REFUSED_KEPT``, and how many came in all.
    #: They never settle the run.
    refused: list[Delivery] = field(default_factory=list)
    refused_count: int = 0
    #: Why there is no push for this invocation (the agent refused it...), else None.
    error: str | None = None
    #: The agent accepted the send that carried the webhook.
    registered: bool = False

    @property
    def sees_deliveries(self) -> bool:
        """True when sia-tui itself receives the deliveries (not an external receiver)."""
        return self.receiver == LOOPBACK

    @property
    def note(self) -> str:
        """One sentence on what the timeline can show."""
        if self.error:
            return self.error
        if not self.sees_deliveries:
            return (
                f"deliveries go to {self.url}, a receiver sia-tui does not run: it cannot "
                "see them; check that receiver"
            )
        count = len(self.deliveries) + self.not_listed
        note = f"{count} deliver{'y' if count == 1 else 'ies'} received at {self.url}"
        if self.refused_count:
            note += (
                f"; {self.refused_count} refused without the run's token (not the agent's, or "
                "an agent that does not echo it: they never settle the run)"
            )
        return note
