"""What a live ``rerun`` takes from the person running it, not from the session file.

A session file is someone else's input (docs/SECURITY.md): the push webhook it recorded
would have the live agent deliver task notifications to a URL the file names, and its
capabilities override would send a mode the card does not declare. Both come from the
command; each one the file recorded otherwise is said in a note.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sia_tui.core.needs import Need, word
from sia_tui.core.output.policy import printable
from sia_tui.core.run.push_log import LOOPBACK
from sia_tui.core.run.state import Target


@dataclass(frozen=True)
class LiveChoices:
    """The command's own push webhook (``--push-url``) and capabilities override."""

    push_url: str | None = None
    ignore_capabilities: bool = False


NO_CHOICES = LiveChoices()


def live_target(recorded: Target, live: LiveChoices, notes: list[str]) -> Target:
    """``recorded`` with the push webhook and the capabilities override of ``live``.

    sia-tui's own loopback receiver is kept (it listens on 127.0.0.1 for this run only); a
    receiver of the file's is replaced by ``--push-url`` or dropped."""
    push = recorded.push
    if push is not None and push != LOOPBACK:
        if live.push_url is None:
            notes.append(
                f"the session registered push notifications at {printable(push[:200])}; this "
                f"run registers none ({word(Need.PUSH_URL)}): a session file names no webhook"
            )
        push = live.push_url
    if recorded.ignore_capabilities and not live.ignore_capabilities:
        notes.append(
            "the session ignored the card's capabilities; this run respects them "
            f"({word(Need.IGNORE_CAPABILITIES)}): a session file gives no override"
        )
    return dataclasses.replace(recorded, push=push, ignore_capabilities=live.ignore_capabilities)
