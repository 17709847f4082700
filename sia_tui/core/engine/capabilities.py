"""What the card's capabilities allow: a mode it does not declare is refused, with a reason.

A2A 1.0 section 3.1.7: an agent declares ``capabilities.streaming`` and
``capabilities.pushNotifications``; a client does not use what is not declared. Sending
SendStreamingMessage to a card without ``streaming`` is refused here, with the override
named (``Need.IGNORE_CAPABILITIES``), as push to a card without ``pushNotifications`` is
(``engine/push.py``): the user who wants to test an agent that under-declares says so.
The check (step 8), ``sia-tui send`` and the TUI's console all ask this one function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sia_tui.core.invocation_mode import InvocationMode
from sia_tui.core.needs import Need, word

if TYPE_CHECKING:
    from sia_tui.core.a2a.views import AgentCard


def capability_refusal(card: AgentCard | None, mode: str | None) -> str | None:
    """Why ``mode`` is not sent to the agent of ``card``; None when the card allows it."""
    if card is None or mode != InvocationMode.STREAM or card.streaming:
        return None
    return (
        "the stream mode was not sent: the Agent Card does not declare "
        "capabilities.streaming (A2A 1.0 section 3.1.7), so SendStreamingMessage may be "
        f"refused (to test an agent that under-declares: {word(Need.IGNORE_CAPABILITIES)})"
    )
